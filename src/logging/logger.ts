import { pino, type Logger } from 'pino';
import { prettyDestination } from './pretty.js';

export type { Logger };

/** Secrets never reach the logs: these paths are censored wherever they appear. */
const redact = ['authorization', '*.authorization', 'headers.authorization', 'token', '*.token', 'secret', '*.secret', 'key', '*.key'];

export type LogFormat = 'auto' | 'pretty' | 'json';

/** `auto`: pretty when stdout is a terminal (a person reading `hafatra start`), JSON otherwise. */
export function createLogger(level: string, name = 'hafatra', format: LogFormat = 'json'): Logger {
  const options = { name, level, redact: { paths: redact, censor: '[redacted]' } };
  const pretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  if (!pretty) return pino(options);
  const accessLines = level === 'debug' || level === 'trace';
  return pino(
    options,
    prettyDestination((line) => process.stdout.write(line), { accessLines, colour: process.stdout.isTTY === true }),
  );
}
