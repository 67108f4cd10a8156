import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../config/config.js';
import { openContext, closeContext } from '../app/runtime.js';
import { migrate } from '../db/migrate.js';
import { redisReady } from '../redis/connection.js';
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

function help(group?: string): string {
  const listed = commands.filter((c) => group === undefined || c.path[0] === group);
  const lines = listed.map((c) => `  hafatra ${c.path.join(' ').padEnd(24)} ${c.summary}`);
  const title = group === undefined ? 'Hafatra: a self-hosted SMS gateway.' : `hafatra ${group}: its commands.`;
  return [title, '', 'Usage:', ...lines, '', 'Every admin command takes --json. `hafatra <command> --help` for its options.'].join('\n');
}

const GROUPS = new Set(commands.filter((c) => c.path.length > 1).map((c) => c.path[0]!));
const asksHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/** No command matched: the general help, a group's help (`hafatra key --help`), or an unknown command. */
function notFound(argv: string[]): number {
  if (argv.length === 0 || asksHelp(argv[0])) {
    io.out(help());
    return 0;
  }
  const group = argv[0]!;
  if (GROUPS.has(group)) {
    if (argv.length > 1 && argv.slice(1).every(asksHelp)) {
      io.out(help(group));
      return 0;
    }
    io.err(`error: ${argv.length > 1 ? `unknown command: hafatra ${group} ${argv[1]}` : `hafatra ${group} needs a command`}\n\n${help(group)}`);
    return 2;
  }
  io.err(`error: unknown command: ${group}\n\n${help()}`);
  return 2;
}

/**
 * `--daily-limit -5`: Node's parser takes a value starting with a dash for another option and
 * answers "argument is ambiguous". A declared string option followed by a negative number gets it
 * as its value, so the command's own check can say what is wrong with it.
 */
function joinNegativeValues(rest: string[], options: Command['options']): string[] {
  const out: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const name = arg.startsWith('--') ? arg.slice(2) : '';
    const next = rest[i + 1];
    if (options?.[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export async function main(argv: string[]): Promise<number> {
  const found = findCommand(argv);
  if (!found || asksHelp(argv[0])) return notFound(found ? [] : argv);
  const { command } = found;
  const rest = joinNegativeValues(found.rest, command.options);
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
      // Its Redis fails fast (no offline queue): a command sent before the connection is ready
      // would fail ("Stream isn't writeable"), as `key rotate` did on a busy machine.
      await Promise.all([migrate(ctx.db), redisReady(ctx.redis)]);
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
