import type { Config } from '../config/config.js';
import type { RequestHeaders } from '../http/router.js';

/** Where members open the dashboard: HAFATRA_PUBLIC_URL, else the page's own origin, else localhost. */
export function dashboardBaseUrl(config: Config, headers?: RequestHeaders): string {
  if (config.publicUrl) return config.publicUrl;
  const origin = headers?.browser?.origin;
  if (origin && /^https?:\/\/[^\s/]+$/.test(origin)) return origin;
  return `http://localhost:${config.port}`;
}

/** The session cookie is Secure when members reach the dashboard over HTTPS (a public https URL, or HAFATRA_HTTPS). */
export const secureCookies = (config: Config): boolean => config.https || config.publicUrl?.startsWith('https://') === true;
