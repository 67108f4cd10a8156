import type { Config } from '../config/config.js';
import { MOBILE_PREFIX } from './mobile-route.js';

/** The events Hafatra has the phone fire at it (smsgate-mobile-protocol.md §6), each under a stable id. */
export const PHONE_WEBHOOK_EVENTS = ['sms:received', 'sms:sent', 'sms:delivered', 'sms:failed', 'system:ping', 'app:started'] as const;
export type PhoneWebhookEvent = (typeof PHONE_WEBHOOK_EVENTS)[number];

/** Where the phone posts them: one endpoint, the event named in the body. */
export const WEBHOOK_RECEIVER_PATH = '/webhooks/events';

/** What the phone's request says of where it reached us. */
export interface RequestOrigin {
  host?: string;
  forwardedProto?: string;
}

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The base the phone reaches Hafatra at: HAFATRA_PUBLIC_URL when set (behind a proxy that does
 * not pass the Host on), else the scheme and Host of the phone's own request, which is the API
 * URL the user typed less `/mobile/v1`.
 */
export function phoneBaseUrl(config: Pick<Config, 'publicUrl' | 'https' | 'trustProxy' | 'port'>, origin: RequestOrigin): string {
  if (config.publicUrl) return config.publicUrl;
  const proto = config.https
    ? 'https'
    : config.trustProxy && /^https?$/i.test(origin.forwardedProto?.split(',')[0]?.trim() ?? '')
      ? origin.forwardedProto!.split(',')[0]!.trim().toLowerCase()
      : 'http';
  const host = origin.host && HOST.test(origin.host) ? origin.host : `127.0.0.1:${config.port}`;
  return `${proto}://${host}`;
}

/** GET /mobile/v1/webhooks: the list replaces all the phone's cloud webhooks. */
export function phoneWebhooks(base: string): { id: string; url: string; event: PhoneWebhookEvent }[] {
  const url = `${base}${MOBILE_PREFIX}${WEBHOOK_RECEIVER_PATH}`;
  return PHONE_WEBHOOK_EVENTS.map((event) => ({ id: `hafatra-${event.replace(':', '-')}`, url, event }));
}
