import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Config } from '../../src/config/config.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { deviceAuthenticator } from '../../src/devices/authenticate-device.js';
import { createPairingCode } from '../../src/devices/pairing.js';

/** A test API process that accepts device tokens (the harness alone refuses every phone). */
export async function startDevicesApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  let auth: ReturnType<typeof deviceAuthenticator> | undefined;
  const app: TestApp = await startTestApp(overrides, {
    deviceAuthenticator: (authorization) => (auth ??= deviceAuthenticator(app.ctx))(authorization),
  });
  return app;
}

/** Pairs a phone the way the app does: a code from the operator, exchanged over HTTP. */
export async function pairPhone(app: TestApp, orgId: string, body: { name?: string; model?: string; appVersion?: string } = {}) {
  const { code } = await createPairingCode(app.ctx, orgId);
  const res = await app.request('POST', '/device/v1/pair', { body: { code, ...body } });
  if (res.status !== 200) throw new Error(`pairing failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { deviceId: string; token: string };
}

export const heartbeat = (app: TestApp, token: string, body: unknown) => app.request('POST', '/device/v1/heartbeat', { headers: { authorization: `Bearer ${token}` }, body });

/** Puts a message in a held status as a claim and status reports would (arranging state only). */
export async function holdMessage(app: TestApp, messageId: string, deviceId: string, status: 'claimed' | 'sending' | 'sent') {
  await app.ctx.db.query(`UPDATE messages SET status = $3, device_id = $2, claimed_at = now(), updated_at = now() WHERE id = $1`, [messageId, deviceId, status]);
}

export async function sendTo(app: TestApp, key: string, deviceId?: string): Promise<string> {
  const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'Salama', ...(deviceId ? { deviceId } : {}) } });
  if (res.status !== 202) throw new Error(`send failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.messages[0].id as string;
}

/** Validates a response against the documented schema (date-time strings must be ISO 8601 UTC). */
export function schemaErrors(schema: TSchema, value: unknown): string[] {
  if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v));
  return [...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`);
}
