import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/harness.js';
import { sms, unlockedPhone, waitFor } from '../../incoming/support.js';
import { recordIncoming } from '../../../src/incoming/record-incoming.js';
import { startWorkers, type Workers } from '../../../src/app/workers.js';
import { mvolaReceived, readingOf } from './support.js';

let app: TestApp;
let workers: Workers;

beforeAll(async () => {
  app = await startTestApp({ sweepIntervalMs: 50 });
  workers = await startWorkers(app.ctx);
});
afterAll(async () => {
  await workers.close();
  await app.close();
});

describe('a worker process', () => {
  it('reads received SMS for mobile money and sweeps expired bodies', async () => {
    const { org, key } = await app.createOrg();
    const phone = await unlockedPhone(app, org.id);
    const money = await recordIncoming(app.ctx, phone, sms({ from: 'MVola', body: mvolaReceived() }));
    expect((await readingOf(app, key, money.incomingId!))?.classification).toBe('matched');

    const expiring = await recordIncoming(app.ctx, phone, sms({ body: 'short-lived' }));
    await app.ctx.db.query(`UPDATE incoming_messages SET retention_expires_at = now() WHERE id = $1`, [expiring.incomingId]);
    const purged = await waitFor('the retention sweep', async () => {
      const res = await app.request('GET', `/v1/incoming/${expiring.incomingId}`, { key });
      return res.body.bodyPurgedAt ? res.body : null;
    });
    expect(purged.body).toBeNull();
  });
});
