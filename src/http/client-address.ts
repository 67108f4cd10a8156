import type { HttpResponse } from './uws.js';
import type { ResponseState } from './reply.js';

/**
 * The address a request came from. Behind a proxy every request comes from the proxy, so with
 * `trustProxy` the last X-Forwarded-For entry counts: the one the proxy appended. (Earlier entries
 * are whatever the client sent.) Without it the header is ignored, so a client cannot choose its
 * address. Read on demand: only the routes that limit by address pay for it.
 */
export function clientAddressReader(res: HttpResponse, state: ResponseState, forwardedFor: string, trustProxy: boolean): () => string {
  return () => {
    if (trustProxy) {
      const last = forwardedFor.split(',').pop()?.trim();
      if (last) return last;
    }
    // The socket is gone once the request was aborted: its address can no longer be read.
    return state.aborted ? 'aborted' : Buffer.from(res.getRemoteAddressAsText()).toString();
  };
}
