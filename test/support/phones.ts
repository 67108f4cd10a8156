import { expect } from 'vitest';
import type { Config } from '../../src/config/config.js';
import type { TemplatedApp } from '../../src/http/uws.js';
import { startTestApp, type TestApp } from './harness.js';
import { deviceAuthenticator } from '../../src/devices/authenticate-device.js';
import { createPairingCode } from '../../src/devices/pairing.js';
import { socketStateWriter } from '../../src/devices/heartbeat.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import { deviceOperations } from '../../src/app/device-operations.js';
import { attachDeviceSockets, type DeviceSockets } from '../../src/dispatch/socket-server.js';
import { DeviceClient, type DeviceClientOptions } from '../../src/phone/device-client.js';
import { DeviceProtocolError } from '../../src/phone/protocol.js';
import type { Clock } from '../../src/time/clock.js';

/** A test API process with phone authentication and the /device/v1/socket endpoint. */
export interface PhoneTestApp extends TestApp {
  sockets: DeviceSockets;
  /**
   * While set, socket upgrades fail to authenticate with this error, as they would while the
   * database is unreachable (Postgres itself is shared by every test file, so it stays up).
   */
  authenticationOutage: Error | null;
  /** Socket upgrades that reached authentication. */
  upgradeAttempts: number;
}

/**
 * The harness builds its context inside startTestApp, after the extension object is passed:
 * the socket endpoint is attached to the uWS app once that context exists (uWS takes routes
 * at any time), and phone authentication reads the context lazily.
 */
export async function startPhoneTestApp(overrides: Partial<Config> = {}, clock?: Clock): Promise<PhoneTestApp> {
  let uws: TemplatedApp | undefined;
  let sockets: DeviceSockets | undefined;
  let authenticate: ReturnType<typeof deviceAuthenticator> | undefined;
  const app = await startTestApp(
    overrides,
    {
      deviceAuthenticator: (authorization) => authenticate!(authorization),
      attach: (a) => {
        uws = a;
      },
      onClose: async () => {
        await sockets?.close();
      },
    },
    clock,
  );
  authenticate = deviceAuthenticator(app.ctx);
  const phoneApp = Object.assign(app, { authenticationOutage: null as Error | null, upgradeAttempts: 0 });
  sockets = attachDeviceSockets(uws!, app.ctx, {
    authenticate: async (authorization) => {
      phoneApp.upgradeAttempts += 1;
      if (phoneApp.authenticationOutage) throw phoneApp.authenticationOutage;
      return authenticate!(authorization);
    },
    ops: deviceOperations(app.ctx),
    markSocket: socketStateWriter(app.ctx),
  });
  return Object.assign(phoneApp, { sockets });
}

export interface TestPhone {
  deviceId: string;
  token: string;
  client: DeviceClient;
}

export interface TestPhoneOptions {
  name?: string;
  /** Raises (or lowers) the phone's pacing; tests of throughput set it far above Android's 25/min. */
  pacingPerMinute?: number;
  /** Client options; baseUrl defaults to the app's (a test may route the phone through a proxy). */
  client?: Partial<Omit<DeviceClientOptions, 'token'>>;
}

/** Pairs a phone through the real flow (pairing code → POST /device/v1/pair); the client is not connected yet. */
export async function pairTestPhone(app: TestApp, orgId: string, opts: TestPhoneOptions = {}): Promise<TestPhone> {
  const { code } = await createPairingCode(app.ctx, orgId);
  const { deviceId, token } = await DeviceClient.pair(app.url, { code, name: opts.name ?? 'Test phone', model: 'Simulator' });
  if (opts.pacingPerMinute !== undefined) {
    await app.ctx.db.query('UPDATE devices SET pacing_per_minute = $2 WHERE id = $1', [deviceId, opts.pacingPerMinute]);
    await syncDeviceState(app.ctx, deviceId);
  }
  const client = new DeviceClient({ baseUrl: app.url, token, reconnect: { minMs: 20, maxMs: 200 }, ...opts.client });
  return { deviceId, token, client };
}

/** POST /v1/messages to `count` distinct recipients; the accepted message ids in order. */
export async function sendMessages(app: TestApp, key: string, count: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const to = Array.from({ length: count }, (_, i) => `+2613430${String(i).padStart(5, '0')}`);
  const res = await app.request('POST', '/v1/messages', { key, body: { to, body: 'Salama', ...extra } });
  if (res.status !== 202) throw new Error(`send failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.messages as { id: string }[]).map((m) => m.id);
}

/** Polls until `check` returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Asserts a phone's frame was answered with an `error` frame of `code` whose message matches. */
export async function expectFrameError(sent: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  const err = await sent.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeviceProtocolError);
  expect({ code: (err as DeviceProtocolError).code, message: (err as DeviceProtocolError).message }).toEqual({ code, message: expect.stringMatching(message) });
}
