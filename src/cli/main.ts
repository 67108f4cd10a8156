import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../config/config.js';
import { openContext, closeContext } from '../app/runtime.js';
import { migrate } from '../db/migrate.js';
import type { AppContext } from '../context/app-context.js';
import { UsageError, type Command, type CommandArgs, type CommandIo } from './command.js';
import { commands } from './commands/index.js';
import { resolveServices } from '../launcher/resolve-services.js';
import { isHafatraError } from '../errors/errors.js';

const io: CommandIo = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

function findCommand(argv: string[]): { command: Command; rest: string[] } | undefined {
  let best: Command | undefined;
  for (const c of commands) {
    if (c.path.every((p, i) => argv[i] === p) && (!best || c.path.length > best.path.length)) best = c;
  }
  return best ? { command: best, rest: argv.slice(best.path.length) } : undefined;
}

function help(): string {
  const lines = commands.map((c) => `  hafatra ${c.path.join(' ').padEnd(24)} ${c.summary}`);
  return ['Hafatra: a self-hosted SMS gateway.', '', 'Usage:', ...lines, '', 'Every admin command takes --json. `hafatra <command> --help` for its options.'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const found = findCommand(argv);
  if (!found || argv[0] === '--help' || argv[0] === 'help') {
    (found || argv.length === 0 || argv[0] === '--help' || argv[0] === 'help' ? io.out : io.err)(help());
    return found || argv.length === 0 || argv[0] === '--help' || argv[0] === 'help' ? 0 : 2;
  }
  const { command, rest } = found;
  let ctx: AppContext | undefined;
  let stopEmbedded: (() => Promise<void>) | undefined;
  try {
    const parsed = parseArgs({ args: rest, options: { ...(command.options ?? {}), json: { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (parsed.values.help) {
      io.out(`${command.summary}\n\nUsage: ${command.usage}`);
      return 0;
    }
    const json = parsed.values.json === true;
    const services = async () => {
      if (ctx) return ctx;
      const resolved = await resolveServices(loadConfig(), (l) => io.err(l));
      stopEmbedded = resolved.embedded ? () => resolved.embedded!.stop() : undefined;
      ctx = openContext(resolved.config, 'cli');
      await migrate(ctx.db);
      return ctx;
    };
    return await command.run({ values: parsed.values as CommandArgs['values'], positionals: parsed.positionals, json }, io, services);
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`error: ${(err as Error).message}\nusage: ${command.usage}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      io.err(`error: ${err.message}`);
      return 2;
    }
    // Refused as the API would refuse it (no_device, rate_limited, not_found…): its code, for scripts.
    if (isHafatraError(err)) {
      io.err(`error: ${err.code}: ${err.message}`);
      return 1;
    }
    io.err(`error: ${(err as Error).message}`);
    return 1;
  } finally {
    if (ctx) await closeContext(ctx);
    if (stopEmbedded) await stopEmbedded();
  }
}
