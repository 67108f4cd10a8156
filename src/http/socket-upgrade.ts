import type { us_socket_context_t } from 'uWebSockets.js';
import type { HttpRequest, HttpResponse } from './uws.js';
import type { Logger } from '../logging/logger.js';
import { guarded, replySafely } from './guard.js';
import { errorReply, toHafatraError } from './reply.js';

/** How one WebSocket route decides who may open a socket. */
export interface SocketAdmission<Asked, Data> {
  /** Copies what the check needs from the request. Runs before any await: uWS frees `req` when the handler returns. */
  read(req: HttpRequest): Asked;
  /** The socket's user data, or a thrown error the client is answered with (a HafatraError's status, else 500). */
  admit(asked: Asked): Promise<Data> | Data;
  /** Logs a failure that is not a refusal (a database down, an upgrade that threw). */
  onUnexpected(err: unknown, requestId: string): void;
}

/**
 * The upgrade handler of a WebSocket route whose sockets are opened only after an asynchronous
 * check (uWS's UpgradeAsync example). `guarded` registers the abort handler before anything
 * runs; the handshake headers and what `read` takes are copied before the first await; the
 * upgrade and the refusal are written corked, and not at all once the client went away. A
 * refusal is answered in the error shape, like any request.
 */
export function authenticatedUpgrade<Asked, Data>(log: Logger, path: string, admission: SocketAdmission<Asked, Data>) {
  return guarded(log, `upgrade ${path}`, (res: HttpResponse, req: HttpRequest, { state, requestId }, context: us_socket_context_t) => {
    const key = req.getHeader('sec-websocket-key');
    const protocol = req.getHeader('sec-websocket-protocol');
    const extensions = req.getHeader('sec-websocket-extensions');
    const asked = admission.read(req);
    Promise.resolve(asked)
      .then((a) => admission.admit(a))
      .then((data) => {
        if (state.aborted || state.done) return;
        res.cork(() => res.upgrade<Data>(data, key, protocol, extensions, context));
        state.done = true;
      })
      .catch((err: unknown) => {
        const { error, unexpected } = toHafatraError(err);
        if (unexpected) admission.onUnexpected(err, requestId);
        replySafely(res, state, requestId, errorReply(error, requestId), log);
      });
  });
}
