import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/harness.js';
import { sms, unlockedPhone } from '../../incoming/support.js';
import { recordIncoming } from '../../../src/incoming/record-incoming.js';
import { readIncoming } from '../../../src/mobile-money/read-incoming.js';
import { runCliInProcess } from '../../support/cli.js';
import { MVOLA_PROMO, mvolaReceived } from './support.js';
import { testDatabaseUrl } from '../../support/database.js';

/** The real CLI entry point in this process, its output captured. */
const hafatra = (...args: string[]) => runCliInProcess(args, { DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: app.ctx.config.redisPrefix, LOG_LEVEL: 'silent' });

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function receiveAndRead(phone: Awaited<ReturnType<typeof unlockedPhone>>, from: string, body: string, receivedAt?: string) {
  const id = (await recordIncoming(app.ctx, phone, sms({ from, body, ...(receivedAt ? { receivedAt } : {}) }))).incomingId!;
  await readIncoming(app.ctx, [id], null);
  return id;
}

const recordOf = async (incomingId: string) => (await app.ctx.db.query('SELECT * FROM mobile_money_events WHERE incoming_message_id = $1', [incomingId])).rows[0];

describe('hafatra mobile-money reparse', () => {
  it('brings records in line with the templates, keeps reviews, skips purged bodies and reports progress', async () => {
    const { org } = await app.createOrg();
    const phone = await unlockedPhone(app, org.id);
    const drifted = await receiveAndRead(phone, 'MVola', mvolaReceived());
    const intact = await receiveAndRead(phone, 'MVola', mvolaReceived());
    const stale = await receiveAndRead(phone, '+261340000000', 'Salama');
    const staleReviewed = await receiveAndRead(phone, '+261340000001', 'Veloma');
    const neverRead = (await recordIncoming(app.ctx, phone, sms({ from: 'MVola', body: MVOLA_PROMO }))).incomingId!;
    const purged = await receiveAndRead(phone, 'MVola', mvolaReceived());
    // As older templates would have left them: a wrong reading, and records for SMS that are not money.
    await app.ctx.db.query(
      `UPDATE mobile_money_events SET classification = 'ambiguous', amount_minor = NULL, parser_version = 'old',
         review_status = 'reviewed', review_note = 'checked by phone', reviewed_at = now() WHERE incoming_message_id = $1`,
      [drifted],
    );
    for (const [id, review] of [
      [stale, 'none'],
      [staleReviewed, 'reviewed'],
    ] as const) {
      await app.ctx.db.query(
        `INSERT INTO mobile_money_events (id, org_id, incoming_message_id, provider, classification, parsing_status, parser_version, review_status)
         VALUES ('mm_old_' || $1, $2, $1, 'provider_a', 'ambiguous', 'failed', 'old', $3)`,
        [id, org.id, review],
      );
    }
    await app.ctx.db.query('UPDATE incoming_messages SET money_checked_at = NULL WHERE id = $1', [neverRead]);
    await app.ctx.db.query('UPDATE incoming_messages SET body = NULL, body_purged_at = now() WHERE id = $1', [purged]);
    const purgedBefore = await recordOf(purged);

    const intactBefore = await recordOf(intact);
    const run = await hafatra('mobile-money', 'reparse', '--org', org.name, '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ total: 5, created: 1, updated: 1, unchanged: 1, removed: 1, keptReviewed: 1, skippedPurged: 1 });
    expect(run.stderr).toContain('5/5');

    expect(await recordOf(drifted)).toMatchObject({
      classification: 'matched',
      amount_minor: 85_000_000,
      review_status: 'reviewed',
      review_note: 'checked by phone',
    });
    expect((await recordOf(drifted)).parser_version).not.toBe('old');
    expect(await recordOf(stale)).toBeUndefined();
    expect(await recordOf(staleReviewed)).toMatchObject({ review_status: 'reviewed' });
    expect(await recordOf(neverRead)).toMatchObject({ classification: 'unknown' });
    expect(await recordOf(purged)).toEqual(purgedBefore);
    expect(await recordOf(intact)).toEqual(intactBefore); // the one `unchanged`
  });

  it('reads only SMS received since --since, and a second run changes nothing', async () => {
    const { org } = await app.createOrg();
    const phone = await unlockedPhone(app, org.id);
    await receiveAndRead(phone, 'MVola', mvolaReceived(), '2025-01-01T00:00:00Z');
    await receiveAndRead(phone, 'MVola', mvolaReceived(), '2025-03-01T00:00:00Z');
    const run = await hafatra('mobile-money', 'reparse', '--org', org.id, '--since', '2025-02-01', '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({ total: 1, unchanged: 1, updated: 0, created: 0 });
    const text = await hafatra('mobile-money', 'reparse', '--org', org.id);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Read 2 SMS again: 0 new records, 0 updated, 2 unchanged');
  });

  it('refuses a bad date and an unknown organization', async () => {
    expect((await hafatra('mobile-money', 'reparse', '--since', 'last tuesday')).code).toBe(2);
    const unknown = await hafatra('mobile-money', 'reparse', '--org', 'no-such-org');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no organization');
  });
});

describe('hafatra mobile-money review', () => {
  it('marks a record reviewed with the note, visible in the API', async () => {
    const { org, key } = await app.createOrg();
    const phone = await unlockedPhone(app, org.id);
    const id = await receiveAndRead(phone, 'MVola', mvolaReceived());
    const eventId = (await recordOf(id)).id as string;
    const run = await hafatra('mobile-money', 'review', eventId, '--note', 'seen on the bank statement', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).review).toMatchObject({ status: 'reviewed', note: 'seen on the bank statement' });
    const res = await app.request('GET', `/v1/mobile-money/${eventId}`, { key });
    expect(res.body.review).toEqual({ status: 'reviewed', note: 'seen on the bank statement', reviewedAt: expect.any(String) });
  });

  it('fails for an unknown record and needs --note', async () => {
    const missing = await hafatra('mobile-money', 'review', 'mm_missing', '--note', 'x');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no mobile-money record mm_missing');
    expect((await hafatra('mobile-money', 'review', 'mm_missing')).code).toBe(2);
  });
});
