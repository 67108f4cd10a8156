import { randomBytes } from 'node:crypto';
import type { AndroidApp } from './android-app.js';
import { webhookSignature } from '../../src/mobile-api/webhook-signature.js';

/**
 * The webhooks SMS Gateway for Android fires at the URLs of GET /mobile/v1/webhooks
 * (smsgate-mobile-protocol.md §6): its envelope, User-Agent and X-Timestamp/X-Signature, signed
 * with the key of GET /mobile/v1/settings. A test may sign with another key, time or signature.
 */
export class AppWebhooks {
  signingKey?: string;
  urls = new Map<string, string>();

  constructor(readonly phone: AndroidApp) {}

  /** What the app does on start and on WebhooksUpdated/SettingsUpdated: both syncs. */
  async sync(): Promise<void> {
    const hooks = await this.phone.call('GET', '/webhooks');
    if (hooks.status !== 200) throw new Error(`GET /webhooks answered ${hooks.status}: ${hooks.text}`);
    this.urls = new Map((hooks.body as { event: string; url: string }[]).map((h) => [h.event, h.url]));
    const settings = await this.phone.call('GET', '/settings');
    if (settings.status !== 200) throw new Error(`GET /settings answered ${settings.status}: ${settings.text}`);
    this.signingKey = settings.body.webhooks.signing_key;
  }

  /** Posts one event as the app does; `id` stays the same across the app's retries. */
  async fire(event: string, payload: unknown, opts: { id?: string; key?: string; timestamp?: number; signature?: string; url?: string } = {}): Promise<{ status: number; text: string; id: string }> {
    const id = opts.id ?? randomBytes(15).toString('base64url');
    const url = opts.url ?? this.urls.get(event);
    if (!url) throw new Error(`no webhook listed for ${event}`);
    const body = JSON.stringify({ id, webhookId: `hafatra-${event.replace(':', '-')}`, event, deviceId: this.phone.id, payload });
    const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
    const key = opts.key ?? this.signingKey ?? 'random-k';
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': this.phone.userAgent,
        'x-timestamp': timestamp,
        'x-signature': opts.signature ?? webhookSignature(key, Buffer.from(body, 'utf8'), timestamp),
      },
      body,
    });
    return { status: res.status, text: await res.text(), id };
  }
}
