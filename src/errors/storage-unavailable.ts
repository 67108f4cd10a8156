/**
 * Whether a failure means Postgres or Redis cannot be reached right now (a restart, an outage, a
 * connection cut), rather than a fault in Hafatra: the request answers 500 internal_error all the
 * same, with Retry-After, since the same request will very likely succeed in a few seconds.
 */
export function isStorageUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return err.name === 'MaxRetriesPerRequestError' || UNAVAILABLE_MESSAGES.some((m) => err.message.startsWith(m));
}

/** Socket errors, and Postgres's: shutting down (57P01-57P03), cancelled on timeout (57014), too many connections (53300). */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '57014', '53300']);

/** pg and ioredis report a lost or refused connection by message only. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  "Stream isn't writeable",
  'Connection is closed',
  'Command timed out',
];
