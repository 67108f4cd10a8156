import type { HttpResponse } from './uws.js';
import { statusLine } from './status-text.js';
import { HafatraError, errors, isHafatraError } from '../errors/errors.js';

export interface Reply {
  status: number;
  body?: unknown;
  /** The body already serialized (built by Postgres, say): sent as it is, in place of `body`. */
  json?: string;
  headers?: Record<string, string>;
}

/** A request's view of its uWS response: set once aborted, after which res must not be touched. */
export interface ResponseState {
  aborted: boolean;
  done: boolean;
  /** Called once when the client goes away (uWS keeps one onAborted handler: this is its one listener). */
  onAbort?: () => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Writes a reply after any await: corked (one syscall), and never after an abort. */
export function sendReply(res: HttpResponse, state: ResponseState, requestId: string, reply: Reply): void {
  if (state.aborted || state.done) return;
  // Serialized before the response is marked done: a body that cannot be (a BigInt) leaves room for a 500.
  const payload = reply.json ?? (reply.body === undefined ? undefined : JSON.stringify(reply.body));
  state.done = true;
  res.cork(() => {
    res.writeStatus(statusLine(reply.status));
    res.writeHeader('x-request-id', requestId);
    if (payload !== undefined) res.writeHeader('content-type', JSON_TYPE);
    if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.writeHeader(k, v);
    res.end(payload);
  });
}

export function errorReply(err: HafatraError, requestId: string): Reply {
  return {
    status: err.status,
    headers: err.headers,
    body: { error: { code: err.code, message: err.message, requestId } },
  };
}

/** Maps anything thrown to the spec's error shape; unexpected failures become 500 internal_error. */
export function toHafatraError(err: unknown): { error: HafatraError; unexpected: boolean } {
  if (isHafatraError(err)) return { error: err, unexpected: false };
  return { error: errors.internal(), unexpected: true };
}
