import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { deviceAuthenticator } from '../../src/devices/authenticate-device.js';
import { newDeviceToken } from '../../src/devices/device-token.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function phoneWithToken(orgId: string, revoked = false): Promise<{ deviceId: string; authorization: string }> {
  const deviceId = await insertTestDevice(app.ctx, orgId, { revoked });
  const { token, hash } = newDeviceToken();
  await app.ctx.db.query('UPDATE devices SET token_hash = $2 WHERE id = $1', [deviceId, hash]);
  return { deviceId, authorization: `Bearer ${token}` };
}

describe('device tokens looked up together', () => {
  it('answers each of the lookups of one turn with its own phone, and refuses an unknown or revoked token among them', async () => {
    const orgs = [(await app.createOrg()).org.id, (await app.createOrg()).org.id];
    const live = await Promise.all([orgs[0]!, orgs[1]!, orgs[0]!].map((orgId) => phoneWithToken(orgId)));
    const revoked = await phoneWithToken(orgs[0]!, true);
    const authenticate = deviceAuthenticator(app.ctx);
    const answers = await Promise.allSettled([...live, revoked, { authorization: `Bearer hfd_${'x'.repeat(43)}` }, live[0]!].map((p) => authenticate(p.authorization)));
    expect(answers.slice(0, 3).map((a) => a.status === 'fulfilled' && a.value)).toEqual(live.map((p, i) => ({ kind: 'device', orgId: orgs[[0, 1, 0][i]!], deviceId: p.deviceId })));
    expect(answers[3]).toMatchObject({ status: 'rejected', reason: { code: 'unauthorized' } });
    expect(answers[4]).toMatchObject({ status: 'rejected', reason: { code: 'unauthorized' } });
    expect(answers[5]).toMatchObject({ status: 'fulfilled', value: { deviceId: live[0]!.deviceId } });
    const { rows } = await app.ctx.db.query<{ seen: boolean }>('SELECT last_seen_at IS NOT NULL AS seen FROM devices WHERE id = ANY($1::text[]) ORDER BY id', [live.map((p) => p.deviceId)]);
    expect(rows.every((r) => r.seen)).toBe(true);
  });
});
