import type { HttpRequest, HttpResponse } from './uws.js';
import { errorReply, sendReply, type Reply, type ResponseState } from './reply.js';
import { errors } from '../errors/errors.js';
import { newId } from '../ids/ids.js';
import type { Logger } from '../logging/logger.js';

/** What a guarded handler is given besides res and req: its abort flag and its request id. */
export interface Guarded {
  state: ResponseState;
  requestId: string;
}

/**
 * Wraps a uWS request (or upgrade) handler so that nothing it throws can end the process: uWS
 * lets an exception out of a handler become an uncaught exception, and Node exits with every
 * request and phone socket of the process. What is thrown is logged with the request id and
 * answered 500 internal_error in the error shape. onAborted is registered first, before the
 * handler runs, so the handler may await and answer later (uWS rule: onAborted before any await).
 */
export function guarded<Rest extends unknown[]>(
  log: Logger,
  where: string,
  handler: (res: HttpResponse, req: HttpRequest, g: Guarded, ...rest: Rest) => void,
): (res: HttpResponse, req: HttpRequest, ...rest: Rest) => void {
  return (res, req, ...rest) => {
    const state: ResponseState = { aborted: false, done: false };
    res.onAborted(() => {
      state.aborted = true;
      state.onAbort?.();
    });
    const requestId = newId('request');
    try {
      handler(res, req, { state, requestId }, ...rest);
    } catch (err) {
      log.error({ err, requestId, route: where }, 'request failed');
      replySafely(res, state, requestId, errorReply(errors.internal(), requestId), log);
    }
  };
}

/**
 * sendReply for code that must not throw (an async continuation, a catch): a reply that cannot
 * be serialized (a BigInt, a cycle) becomes a 500, and a write that fails is logged, not thrown.
 * Returns the status answered (for the access log).
 */
export function replySafely(res: HttpResponse, state: ResponseState, requestId: string, reply: Reply, log: Logger): number {
  try {
    sendReply(res, state, requestId, reply);
    return reply.status;
  } catch (err) {
    log.error({ err, requestId }, 'reply not sent');
    try {
      sendReply(res, state, requestId, errorReply(errors.internal(), requestId));
    } catch {
      // The response was half written or is gone: nothing more can be said on it.
    }
    return 500;
  }
}
