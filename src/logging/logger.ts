import { pino, type Logger } from 'pino';

export type { Logger };

/** Secrets never reach the logs: these paths are censored wherever they appear. */
const redact = ['authorization', '*.authorization', 'headers.authorization', 'token', '*.token', 'secret', '*.secret', 'key', '*.key'];

export function createLogger(level: string, name = 'hafatra'): Logger {
  return pino({ name, level, redact: { paths: redact, censor: '[redacted]' } });
}
