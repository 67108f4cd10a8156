import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import type { Config } from '../../src/config/config.js';
import { createPairingCode } from '../../src/devices/pairing.js';
import { AndroidApp, type AndroidAppOptions } from '../support/android-app.js';

/** A phone running SMS Gateway for Android, registered with a fresh pairing code of the organization. */
export async function registeredPhone(app: TestApp, orgId: string, opts: AndroidAppOptions = {}): Promise<AndroidApp> {
  const phone = new AndroidApp(app.url, opts);
  const { code } = await createPairingCode(app.ctx, orgId);
  const res = await phone.register(code);
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return phone;
}

/** A phone registered and started as the app starts in SSE_ONLY mode: PATCH /device, its stream, a pull. */
export async function startedPhone(app: TestApp, orgId: string, opts: AndroidAppOptions = {}): Promise<AndroidApp> {
  const phone = await registeredPhone(app, orgId, opts);
  await phone.start();
  return phone;
}

export async function send(app: TestApp, key: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'Salama', ...body } });
  if (res.status !== 202) throw new Error(`send failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.messages[0].id as string;
}

export async function messageOf(app: TestApp, key: string, id: string) {
  return (await app.request('GET', `/v1/messages/${id}`, { key })).body;
}

export const statusOf = async (app: TestApp, key: string, id: string): Promise<string> => (await messageOf(app, key, id)).status;

/** This file's API process and organization, started before its tests and closed after them. */
export function useMobileApp(overrides: Partial<Config> = {}): { app: TestApp; orgId: string; key: string } {
  const env = {} as { app: TestApp; orgId: string; key: string };
  beforeAll(async () => {
    env.app = await startTestApp(overrides);
    const { org, key } = await env.app.createOrg();
    env.orgId = org.id;
    env.key = key;
  });
  afterAll(async () => {
    await env.app?.close();
  });
  return env;
}
