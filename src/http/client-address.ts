import type { HttpRequest, HttpResponse } from './uws.js';

/**
 * The address a request came from. Behind a proxy every request comes from the proxy, so with
 * `trustProxy` the last X-Forwarded-For entry counts: the one the proxy appended. (Earlier entries
 * are whatever the client sent.) Without it the header is ignored, so a client cannot choose its
 * address. Read in the uWS handler itself, while its request is alive, and only for the routes
 * that ask (RouteSpec.clientAddress).
 */
export function clientAddressOf(res: HttpResponse, req: HttpRequest, trustProxy: boolean): string {
  if (trustProxy) {
    const last = req.getHeader('x-forwarded-for').split(',').pop()?.trim();
    if (last) return last;
  }
  return Buffer.from(res.getRemoteAddressAsText()).toString();
}
