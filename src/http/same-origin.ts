import { errors } from '../errors/errors.js';
import type { Method } from './method.js';

/** The headers by which a browser says where a request comes from. */
export interface BrowserHeaders {
  origin: string;
  host: string;
  secFetchSite: string;
}

/**
 * Cross-site requests never act for a member (docs/dashboard-api.md). SameSite=Strict already
 * keeps the cookie off them in current browsers; this is the second lock: a state-changing request
 * must name its own host as Origin (browsers send Origin on every POST, PATCH and DELETE), and
 * Fetch Metadata, when sent, must say same-origin. Reads change nothing and are let through.
 */
export function refuseCrossSite(method: Method, h: BrowserHeaders | undefined): void {
  if (method === 'get') return;
  if (!h?.origin || !h.host) throw errors.crossSite();
  if (h.secFetchSite && h.secFetchSite !== 'same-origin') throw errors.crossSite();
  let originHost: string;
  try {
    originHost = new URL(h.origin).host;
  } catch {
    throw errors.crossSite();
  }
  if (originHost.toLowerCase() !== h.host.toLowerCase()) throw errors.crossSite();
}
