import type { HttpResponse } from './uws.js';
import { statusLine } from './status-text.js';
import { type HafatraError, errors, isHafatraError } from '../errors/errors.js';
import { isStorageUnavailable } from '../errors/storage-unavailable.js';

export interface Reply {
  status: number;
  body?: unknown;
  /** The body already serialized (a message's detail, a send's answer): sent as it is, in place of `body`, which the audit entry may still read. */
  json?: string;
  headers?: Record<string, string>;
  /** A body that is not JSON (the dashboard's files), sent as it is with its content type. */
  raw?: { body: Buffer; contentType: string };
}

/** A request's view of its uWS response: set once aborted, after which res must not be touched. */
export interface ResponseState {
  aborted: boolean;
  done: boolean;
  /** Called once when the client goes away (uWS keeps one onAborted handler: this is its one listener). */
  onAbort?: () => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Bodies whose writes have not gone out at once, process-wide: what slow or non-reading clients
 * make this process hold (the bytes not yet taken by the kernel). Read by tests and the bench.
 */
export const heldReplies = { responses: 0, bytes: 0 };

/** Past this many held bytes in the whole process, a reply that cannot go out at once closes its connection. */
export const HELD_BYTES_LIMIT = 64 * 1024 * 1024;
/** A reply still not fully taken by the client this long after its first stalled write closes its connection. */
export const HELD_REPLY_MS = 30_000;

/**
 * Writes a reply after any await: corked (one syscall), and never after an abort.
 *
 * The body goes out with tryEnd, which hands the kernel what it takes and buffers nothing more
 * (end() would copy the rest into uWS's own unbounded buffer: clients that never read made the
 * process grow by gigabytes). What the kernel did not take is kept here, once, and written from
 * onWritable as the client reads. While a reply is pending uWS closes the connection on the
 * client's next request, so a connection that does not drain holds at most one reply and gets no
 * new work. res.pause() is not used: in this build a paused socket gets no writable events and no
 * timeout, so it would never drain and never close.
 */
export function sendReply(res: HttpResponse, state: ResponseState, requestId: string, reply: Reply): void {
  if (state.aborted || state.done) return;
  // Serialized before the response is marked done: a body that cannot be (a BigInt) leaves room for a 500.
  const payload = reply.raw?.body ?? reply.json ?? (reply.body === undefined ? undefined : JSON.stringify(reply.body));
  state.done = true;
  res.cork(() => {
    res.writeStatus(statusLine(reply.status));
    res.writeHeader('x-request-id', requestId);
    if (payload !== undefined) res.writeHeader('content-type', reply.raw?.contentType ?? JSON_TYPE);
    if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.writeHeader(k, v);
    if (payload === undefined) {
      res.end();
      return;
    }
    // A total of 0 tells uWS this chunk is the whole body: no byte count on the common path.
    const [, done] = res.tryEnd(payload, 0);
    if (!done) holdRest(res, state, typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload);
  });
}

/** Keeps the part of `body` the kernel did not take and writes it as the client drains. */
function holdRest(res: HttpResponse, state: ResponseState, body: Buffer): void {
  let held = 0;
  const account = (remaining: number) => {
    heldReplies.bytes += remaining - held;
    held = remaining;
  };
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    account(0);
    heldReplies.responses--;
  };
  // uWS may already have freed the socket by the time a timer runs: only a live pending reply is closed.
  const close = () => {
    if (!finished && !state.aborted) res.close(); // runs the abort handler below
  };
  heldReplies.responses++;
  account(body.length - res.getWriteOffset());
  // Replaces the router's handler (uWS keeps one): the reply is not done, so an abort must be handled.
  res.onAborted(() => {
    state.aborted = true;
    finish();
  });
  const deadline = setTimeout(close, HELD_REPLY_MS);
  res.onWritable((offset) => {
    const [ok, done] = res.tryEnd(body.subarray(offset), body.length);
    if (done) finish();
    else account(body.length - res.getWriteOffset());
    return ok;
  });
  // Memory stays bounded whatever the number of clients: over the budget, this one is dropped
  // (after the cork this runs in has written what it holds).
  if (heldReplies.bytes > HELD_BYTES_LIMIT) setImmediate(close);
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
  return { error: isStorageUnavailable(err) ? errors.storageUnavailable() : errors.internal(), unexpected: true };
}
