import type { Command } from '../command.js';
import { cliClientSettings, loadConfig, settings } from '../../config/config.js';
import { runProcess } from '../processes.js';
import { openContext, closeContext } from '../../app/runtime.js';
import { migrate } from '../../db/migrate.js';
import { printRows, type CommandArgs, type CommandIo } from '../command.js';

/** `--https` turns HAFATRA_HTTPS on for this run (the LAN certificate of the local CA). */
const httpsOption = { https: { type: 'boolean' } } as const;
const withFlags = (args: CommandArgs) => loadConfig(process.env, args.values.https === true ? { https: true } : {});

export const processCommands: Command[] = [
  {
    path: ['start'],
    summary: 'Run the API and the workers (embedded Postgres and Redis unless DATABASE_URL/REDIS_URL)',
    usage: 'hafatra start [--https]',
    options: httpsOption,
    run: (args, io) => runProcess('all', withFlags(args), io),
  },
  {
    path: ['api'],
    summary: 'Run only the HTTP API and phone sockets (needs DATABASE_URL and REDIS_URL)',
    usage: 'hafatra api [--https]',
    options: httpsOption,
    run: (args, io) => runProcess('api', withFlags(args), io),
  },
  {
    path: ['worker'],
    summary: 'Run only the background workers (needs DATABASE_URL and REDIS_URL)',
    usage: 'hafatra worker',
    run: (_args, io) => runProcess('worker', loadConfig(), io),
  },
  {
    path: ['migrate'],
    summary: 'Apply database migrations',
    usage: 'hafatra migrate [--json]',
    async run(args, io, services) {
      const config = loadConfig();
      if (config.databaseUrl) {
        const ctx = openContext({ ...config, redisUrl: config.redisUrl || 'redis://127.0.0.1:6379' }, 'cli');
        try {
          const applied = await migrate(ctx.db);
          io.out(args.json ? JSON.stringify({ applied }) : applied.length ? `applied: ${applied.join(', ')}` : 'up to date');
        } finally {
          await closeContext(ctx);
        }
        return 0;
      }
      await services();
      io.out(args.json ? JSON.stringify({ ok: true }) : 'up to date');
      return 0;
    },
  },
  {
    path: ['config'],
    summary: "List every setting (the server's, then the CLI's as an API client) with its default and current value",
    usage: 'hafatra config [--json]',
    async run(args, io) {
      const secret = (name: string) => /KEY|URL/.test(name);
      const rows = [...Object.values(settings), ...Object.values(cliClientSettings)].map(({ env: name, default: dflt, doc }) => ({
        name,
        default: dflt,
        current: process.env[name] === undefined ? '' : secret(name) ? '(set)' : process.env[name]!,
        doc,
      }));
      if (args.json) printRows(io, true, rows, ['name', 'default', 'current', 'doc']);
      else for (const row of rows) printSetting(io, row, Math.min(process.stdout.columns || 100, 100));
      return 0;
    },
  },
];

/** A setting as a short block: its name, default and value, then its description wrapped to `width`. */
function printSetting(io: CommandIo, row: { name: string; default: string; current: string; doc: string }, width: number): void {
  const current = row.current === '' ? '' : `, now ${row.current}`;
  io.out(`${row.name}  (default ${row.default === '' ? '(empty)' : row.default}${current})`);
  for (const line of wrap(row.doc, width - 4)) io.out(`    ${line}`);
  io.out('');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
