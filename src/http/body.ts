import { errors } from '../errors/errors.js';
import type { HttpResponse } from './uws.js';
import type { ResponseState } from './reply.js';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; tooLarge: true } | { ok: false; aborted: true };

/**
 * Collects the request body. Must be called synchronously inside the uWS handler: the chunks
 * are neutered once onData returns, so each one is copied at once. Bytes are counted here,
 * because this uWS version has no body limit of its own. A client that goes away before the last
 * chunk (a Content-Length larger than what it sent) ends the wait: otherwise the request would
 * stay in flight for good, and shutdown would wait its whole grace for it.
 */
export function readBody(res: HttpResponse, state: ResponseState, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    state.onAbort = () => {
      if (done) return;
      done = true;
      resolve({ ok: false, aborted: true });
    };
    res.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > limit) {
        done = true;
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        done = true;
        resolve({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
      }
    });
  });
}

/** A request body read as JSON: none, or not JSON, is a 400 naming the body. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw errors.invalid('body: a JSON body is required');
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw errors.invalid('body: not valid JSON');
  }
}
