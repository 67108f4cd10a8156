import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { holdMessage, pairPhone, sendTo, startDevicesApp } from './support.js';

let app: TestApp;
let orgId: string;
let key: string;

beforeAll(async () => {
  app = await startDevicesApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
});
afterAll(() => app.close());

const depths = async () => {
  const { devices } = (await app.request('GET', '/v1/devices', { key })).body;
  return Object.fromEntries(devices.map((d: { name: string; queueDepth: number }) => [d.name, d.queueDepth]));
};

describe('queueDepth', () => {
  it('counts exactly the messages assigned to each phone and not yet sent', async () => {
    const a = await pairPhone(app, orgId, { name: 'A' });
    const b = await pairPhone(app, orgId, { name: 'B' });
    expect(await depths()).toEqual({ A: 0, B: 0 });

    const pinnedToA = [await sendTo(app, key, a.deviceId), await sendTo(app, key, a.deviceId), await sendTo(app, key, a.deviceId)];
    await sendTo(app, key); // any phone may take it: assigned to none yet
    expect(await depths()).toEqual({ A: 3, B: 0 });

    const anyPhone = [await sendTo(app, key), await sendTo(app, key)];
    await holdMessage(app, anyPhone[0]!, a.deviceId, 'claimed');
    await holdMessage(app, anyPhone[1]!, b.deviceId, 'sending');
    expect(await depths()).toEqual({ A: 4, B: 1 });

    await holdMessage(app, pinnedToA[0]!, a.deviceId, 'sending');
    expect(await depths()).toEqual({ A: 4, B: 1 });
    await holdMessage(app, pinnedToA[0]!, a.deviceId, 'sent');
    expect(await depths()).toEqual({ A: 3, B: 1 });

    expect((await app.request('POST', `/v1/messages/${pinnedToA[1]}/cancel`, { key })).status).toBe(200);
    expect(await depths()).toEqual({ A: 2, B: 1 });
    expect((await app.request('GET', `/v1/devices/${a.deviceId}`, { key })).body.queueDepth).toBe(2);
    expect((await app.request('GET', `/v1/devices/${b.deviceId}`, { key })).body.queueDepth).toBe(1);
  });

  it('counts messages of the phone only, not those of another organization', async () => {
    const other = await app.createOrg();
    const theirs = await pairPhone(app, other.org.id, { name: 'Theirs' });
    await sendTo(app, other.key, theirs.deviceId);
    const mine = await pairPhone(app, orgId, { name: 'Mine' });
    expect((await app.request('GET', `/v1/devices/${mine.deviceId}`, { key })).body.queueDepth).toBe(0);
    expect((await app.request('GET', `/v1/devices/${theirs.deviceId}`, { key: other.key })).body.queueDepth).toBe(1);
  });
});
