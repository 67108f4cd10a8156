import type { TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import type { DevicePrincipal } from '../../src/auth/principal.js';
import type { IncomingSms } from '../../src/incoming/schemas.js';

let seq = 0;

/** A received SMS as a phone reports it; clientId unique unless given. */
export function sms(overrides: Partial<IncomingSms> = {}): IncomingSms {
  seq++;
  return { clientId: `c-${Date.now()}-${seq}`, from: '+261341112233', body: `Salama ${seq}`, receivedAt: new Date().toISOString(), ...overrides };
}

/** A phone whose inbound is unlocked: it reported being the default SMS app just now. */
export async function unlockedPhone(app: TestApp, orgId: string): Promise<DevicePrincipal> {
  const deviceId = await insertTestDevice(app.ctx, orgId);
  await app.ctx.db.query('UPDATE devices SET default_sms_app = true, default_sms_app_reported_at = now() WHERE id = $1', [deviceId]);
  return { kind: 'device', orgId, deviceId };
}

/** Subscribes the organization to events, so the outbox keeps them (nobody subscribed: nothing is written). */
export async function subscribeWebhook(app: TestApp, orgId: string, eventTypes: string[]): Promise<void> {
  await app.ctx.db.query(`INSERT INTO webhook_endpoints (id, org_id, url, event_types, secret) VALUES ($1, $2, 'https://example.test/hook', $3, 'whsec_test')`, [
    `whe_${Date.now()}${++seq}`,
    orgId,
    eventTypes,
  ]);
}

export async function eventsOf(app: TestApp, orgId: string, type: string): Promise<Array<{ id: string; payload: any }>> {
  const { rows } = await app.ctx.db.query('SELECT id, payload FROM events WHERE org_id = $1 AND type = $2 ORDER BY id', [orgId, type]);
  return rows;
}

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
