import { pino, type DestinationStream, type Logger } from 'pino';
import { prettyDestination } from './pretty.js';

export type { Logger };

/** Secrets never reach the logs: these paths are censored wherever they appear. */
const redact = ['authorization', '*.authorization', 'headers.authorization', 'token', '*.token', 'secret', '*.secret', 'key', '*.key'];

export type LogFormat = 'auto' | 'pretty' | 'json';

/** `auto`: pretty when stdout is a terminal (a person reading `hafatra start`), JSON otherwise. */
export function createLogger(level: string, name = 'hafatra', format: LogFormat = 'json'): Logger {
  const options = { name, level, redact: { paths: redact, censor: '[redacted]' } };
  const pretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  if (!pretty) return pino(options, stdoutDestination());
  const accessLines = level === 'debug' || level === 'trace';
  return pino(
    options,
    prettyDestination((line) => process.stdout.write(line), { accessLines, colour: process.stdout.isTTY === true }),
  );
}

/**
 * JSON lines go out asynchronously, through one buffer per process: a line costs its
 * serialization, not a write(2) of its own, and the lines written while one write is under way
 * leave together in the next (under load, the access log's lines of a turn share a syscall; at
 * rest, each leaves at once). pino flushes the buffer synchronously when the process exits. A
 * reader of stdout that stops reading costs at most LOG_BUFFER_MAX bytes: past that, lines are
 * dropped rather than held. A stdout replaced in-process (a test reading what is logged) is
 * written to as it is.
 */
let shared: DestinationStream | undefined;
const LOG_BUFFER_MAX = 16 * 1024 * 1024;
function stdoutDestination(): DestinationStream {
  if (process.stdout.write !== Object.getPrototypeOf(process.stdout).write) return process.stdout;
  shared ??= pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_MAX });
  return shared;
}
