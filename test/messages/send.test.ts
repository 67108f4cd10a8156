import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';

let app: TestApp;
let key: string;
let orgId: string;

beforeAll(async () => {
  app = await startTestApp();
  const made = await app.createOrg({ defaultCountry: 'MG' });
  key = made.key;
  orgId = made.org.id;
  await insertTestDevice(app.ctx, orgId);
});
afterAll(() => app.close());

describe('POST /v1/messages', () => {
  it('accepts one recipient, normalizes it to E.164 and queues it', async () => {
    const res = await app.request('POST', '/v1/messages', { key, body: { to: '034 12 345 67', body: 'Salama' } });
    expect(res.status).toBe(202);
    expect(res.body.batchId).toMatch(/^bat_/);
    expect(res.body.messages).toHaveLength(1);
    const m = res.body.messages[0];
    expect(m).toMatchObject({ to: '+261341234567', body: 'Salama', status: 'queued', segments: 1, encoding: 'gsm7', deviceId: null });
    const stored = await app.ctx.db.query('SELECT status FROM messages WHERE id = $1', [m.id]);
    expect(stored.rows[0].status).toBe('queued');
  });
});
