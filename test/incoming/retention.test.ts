import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { startTestApp } from '../support/harness.js';
import { recordIncoming } from '../../src/incoming/record-incoming.js';
import { purgeExpiredBodies } from '../../src/incoming/retention.js';
import { sms, unlockedPhone } from './support.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('retention sweep', () => {
  it('removes bodies whose retention period ended, keeps the others, and shows it in the API', async () => {
    const { org, key } = await app.createOrg({ retentionDays: 1 });
    const phone = await unlockedPhone(app, org.id);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const old = await recordIncoming(app.ctx, phone, sms({ body: 'old secret', receivedAt: twoDaysAgo }));
    const fresh = await recordIncoming(app.ctx, phone, sms({ body: 'fresh' }));

    expect(await purgeExpiredBodies(app.ctx)).toBeGreaterThanOrEqual(1);

    const gone = await app.request('GET', `/v1/incoming/${old.incomingId}`, { key });
    expect(gone.body.body).toBeNull();
    expect(Date.parse(gone.body.bodyPurgedAt)).toBeGreaterThan(Date.now() - 60_000);
    const kept = await app.request('GET', `/v1/incoming/${fresh.incomingId}`, { key });
    expect(kept.body).toMatchObject({ body: 'fresh', bodyPurgedAt: null });
  });

  it('purges in batches until nothing is left and does not touch a purged message again', async () => {
    const { org } = await app.createOrg();
    const phone = await unlockedPhone(app, org.id);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await recordIncoming(app.ctx, phone, sms())).incomingId!);
    await app.ctx.db.query(`UPDATE incoming_messages SET retention_expires_at = now() - interval '1 second' WHERE id = ANY($1)`, [ids]);
    // Other files' expired SMS may be purged by the same call: at least these five.
    expect(await purgeExpiredBodies(app.ctx, 2)).toBeGreaterThanOrEqual(5);
    const purged = await app.ctx.db.query('SELECT count(*) AS n FROM incoming_messages WHERE id = ANY($1) AND body IS NULL AND body_purged_at IS NOT NULL', [ids]);
    expect(Number(purged.rows[0].n)).toBe(5);
    const first = await app.ctx.db.query('SELECT body_purged_at FROM incoming_messages WHERE id = $1', [ids[0]]);
    expect(await purgeExpiredBodies(app.ctx, 2)).toBe(0);
    const again = await app.ctx.db.query('SELECT body, body_purged_at FROM incoming_messages WHERE id = $1', [ids[0]]);
    expect(again.rows[0].body).toBeNull();
    expect(again.rows[0].body_purged_at).toEqual(first.rows[0].body_purged_at);
  });

  it('deletes parts that waited for their siblings longer than the retention period', async () => {
    const { org } = await app.createOrg({ retentionDays: 1 });
    const phone = await unlockedPhone(app, org.id);
    const waiting = await recordIncoming(app.ctx, phone, sms({ body: 'orphan', part: { ref: 1, index: 1, count: 2 } }));
    const recent = await recordIncoming(app.ctx, phone, sms({ body: 'recent', part: { ref: 2, index: 1, count: 2 } }));
    expect(waiting.pending && recent.pending).toBe(true);
    await app.ctx.db.query(`UPDATE incoming_parts SET created_at = now() - interval '25 hours' WHERE device_id = $1 AND body = 'orphan'`, [phone.deviceId]);
    await purgeExpiredBodies(app.ctx);
    const { rows } = await app.ctx.db.query('SELECT body FROM incoming_parts WHERE device_id = $1', [phone.deviceId]);
    expect(rows).toEqual([{ body: 'recent' }]);
  });
});
