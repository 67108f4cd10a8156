import type { HttpRequest, HttpResponse } from './uws.js';

const PRINTABLE_ADDRESS = /^[\x21-\x7e]{1,100}$/;

/**
 * The address a request came from. Behind a proxy every request comes from the proxy, so with
 * `trustProxy` the last X-Forwarded-For entry counts: the one the proxy appended. (Earlier entries
 * are whatever the client sent.) Without it the header is ignored, so a client cannot choose its
 * address. Read in the uWS handler itself, while its request is alive, and only for the routes
 * that ask (RouteSpec.clientAddress).
 */
export function clientAddressOf(res: HttpResponse, req: HttpRequest, trustProxy: boolean): string {
  return clientAddressFrom(res, trustProxy ? req.getHeader('x-forwarded-for') : undefined);
}

/**
 * The same from an X-Forwarded-For value copied earlier (undefined: not trusted), for a caller
 * that decides only later, while `res` is still open, whether it needs the address.
 */
export function clientAddressFrom(res: HttpResponse, forwardedFor: string | undefined): string {
  if (forwardedFor) {
    const last = forwardedFor.split(',').pop()?.trim();
    // An address is printable ASCII; anything else (bytes of 0x80 and above read one character
    // per byte) is not one the proxy wrote, and the connection's address counts instead.
    if (last && PRINTABLE_ADDRESS.test(last)) return last;
  }
  return Buffer.from(res.getRemoteAddressAsText()).toString();
}
