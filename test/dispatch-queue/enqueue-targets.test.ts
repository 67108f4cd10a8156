import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { enqueue } from '../../src/dispatch-queue/enqueue.js';
import type { DispatchEntry } from '../../src/dispatch-queue/entries.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('queuing entries of several organizations and phones at once', () => {
  it('puts each on its own target, whatever order they come in', async () => {
    const [a, b] = [(await app.createOrg()).org.id, (await app.createOrg()).org.id];
    const entry = (id: string, orgId: string, requestedDeviceId: string | null, score: number): DispatchEntry => ({ id, orgId, requestedDeviceId, score, meta: '{}' });
    // Runs of one target broken by others, as the reconciler's batches across organizations come.
    const entries = [
      entry('m1', a, null, 1),
      entry('m2', a, null, 2),
      entry('m3', b, null, 3),
      entry('m4', a, 'dev_x', 4),
      entry('m5', a, null, 5),
      entry('m6', a, 'dev_x', 6),
      entry('m7', b, null, 7),
    ];
    expect(await enqueue(app.ctx, entries)).toBe(7);
    const queued = (orgId: string, deviceId?: string) => {
      const k = app.ctx.keys.org(orgId);
      return app.ctx.redis.zrange(deviceId ? k.deviceQueue(deviceId) : k.orgQueue(), '0', '-1');
    };
    expect(await queued(a)).toEqual(['m1', 'm2', 'm5']);
    expect(await queued(a, 'dev_x')).toEqual(['m4', 'm6']);
    expect(await queued(b)).toEqual(['m3', 'm7']);
    expect(await enqueue(app.ctx, entries)).toBe(0);
  });
});
