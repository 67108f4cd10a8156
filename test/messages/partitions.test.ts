import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { withDatabaseBefore } from '../support/database-before-migration.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { idFloor, newId } from '../../src/ids/ids.js';
import { insertBatchWithMessages } from '../../src/messages/sql/insert-messages.js';
import { writeReports } from '../../src/dispatch/status-reports.js';
import { resendFailed } from '../../src/sending/auto-resend/resend-failures.js';
import { createPartitions } from '../../src/messages/partitions/sql/create-partitions.js';
import { selectPartitions } from '../../src/messages/partitions/sql/select-partitions.js';
import { PARTITION_UPKEEP_LOCK } from '../../src/messages/partitions/sql/partition-upkeep-lock.js';
import { eventually } from '../support/phones.js';
import { createPartitionsAhead, dropExpiredPartitions, MONTHS_AHEAD, startPartitionMaintenance } from '../../src/messages/partitions/maintain-partitions.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ reconcileGraceMs: 0 });
});
afterAll(() => app.close());

/** The partition name of the month (UTC) `monthsFromNow` months from the current one. */
function monthName(table: string, at: Date): string {
  return `${table}_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}
const monthStart = (monthsFromNow: number, from = new Date()) => new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + monthsFromNow, 1));

const partitionOf = async (id: string) => (await app.ctx.db.query('SELECT tableoid::regclass::text AS p FROM messages WHERE id = $1', [id])).rows[0]?.p as string | undefined;
const timelinePartitionsOf = async (id: string) =>
  (await app.ctx.db.query('SELECT DISTINCT tableoid::regclass::text AS p FROM message_events WHERE message_id = $1', [id])).rows.map((r) => r.p as string);
const tableExists = async (name: string) => (await app.ctx.db.query('SELECT to_regclass($1) IS NOT NULL AS e', [name])).rows[0].e as boolean;

async function setup(settings = {}) {
  const { org, key } = await app.createOrg(settings);
  const phones = [await insertTestDevice(app.ctx, org.id), await insertTestDevice(app.ctx, org.id)];
  return { orgId: org.id, key, phones };
}

/**
 * A batch of one queued message written straight to Postgres with an id made at `at` (the API
 * makes ids of the present only), left undispatched for the batch reconciler to queue.
 */
async function insertAt(orgId: string, at: Date, fields: { status?: 'queued' | 'delivered' | 'failed'; autoResendsLeft?: number } = {}): Promise<string> {
  // newId never goes back in time once it made a later id: the time part is set here.
  const id = idFloor('message', at.getTime()) + newId('message').slice(-14);
  const batchId = newId('batch');
  const status = fields.status ?? 'queued';
  const expiresAt = new Date(Date.now() + 86_400_000);
  await insertBatchWithMessages(
    app.ctx.db,
    {
      orgId,
      body: 'from another month',
      status,
      segments: 1,
      encoding: 'gsm7',
      requestedDeviceId: null,
      simSubscriptionId: null,
      batchId,
      resendOfId: null,
      priority: 0,
      autoResendsLeft: fields.autoResendsLeft ?? 0,
      autoResend: false,
      createdAt: at,
      expiresAt,
    },
    { idempotencyKey: null, requestHash: 'h' },
    [{ id, to: '+261341234567', ...(status === 'failed' ? { failureCode: 'no_service' } : {}) }],
  );
  await app.ctx.db.query('UPDATE batches SET created_at = $2, dispatched_at = $3 WHERE id = $1', [batchId, at, status === 'queued' ? null : at]);
  // A recipient written failed is an opted-out one, never resent: a failure worth a resend is set here.
  if (fields.autoResendsLeft) await app.ctx.db.query('UPDATE messages SET auto_resends_left = $2 WHERE id = $1', [id, fields.autoResendsLeft]);
  if (status !== 'queued') await app.ctx.db.query(`INSERT INTO message_events (message_id, from_status, to_status, source, at) VALUES ($1, 'sent', $2, 'device', $3)`, [id, status, at]);
  return id;
}

describe('messages partitioned by month (migration 031)', () => {
  it('has the partitions of this month and the next three, for messages, their timelines and recipients, and no DEFAULT partition', async () => {
    expect(await createPartitionsAhead(app.ctx.db, new Date())).toBe(0); // the migration made them
    const names = (await selectPartitions(app.ctx.db)).map((p) => p.name);
    for (let m = 0; m <= MONTHS_AHEAD; m++) {
      expect(names).toContain(monthName('messages', monthStart(m)));
      expect(names).toContain(monthName('message_events', monthStart(m)));
      expect(names).toContain(monthName('message_recipients', monthStart(m)));
    }
    const defaults = await app.ctx.db.query(`SELECT count(*)::int AS n FROM pg_partitioned_table WHERE partdefid <> 0`);
    expect(defaults.rows[0].n).toBe(0);
    // A month later the worker's pass makes the one that is then three months ahead.
    expect(await createPartitionsAhead(app.ctx.db, monthStart(1))).toBe(1);
    expect(await tableExists(monthName('messages', monthStart(MONTHS_AHEAD + 1)))).toBe(true);
    expect(await tableExists(monthName('message_recipients', monthStart(MONTHS_AHEAD + 1)))).toBe(true);
  });

  it('writes a message sent today, and its timeline, in the partition of this month', async () => {
    const o = await setup();
    const res = await app.request('POST', '/v1/messages', { key: o.key, body: { to: '+261341234567', body: 'today' } });
    expect(res.status).toBe(202);
    const id = res.body.messages[0].id as string;
    expect(await partitionOf(id)).toBe(monthName('messages', new Date()));
    const { jobs } = await app.ctx.dispatch.claim({ orgId: o.orgId, deviceId: o.phones[0]! }, 10);
    expect(jobs.map((j) => j.messageId)).toEqual([id]);
    expect(await timelinePartitionsOf(id)).toEqual([monthName('message_events', new Date())]);
  });

  it('claims, reports, reads and lists messages of two months as one table', async () => {
    const o = await setup();
    await createPartitions(app.ctx.db, monthStart(-1), 1);
    const lastMonth = new Date(monthStart(0).getTime() - 60_000);
    const old = await insertAt(o.orgId, lastMonth);
    const res = await app.request('POST', '/v1/messages', { key: o.key, body: { to: '+261341234568', body: 'this month' } });
    const recent = res.body.messages[0].id as string;
    expect(await partitionOf(old)).toBe(monthName('messages', lastMonth));
    expect(await partitionOf(recent)).toBe(monthName('messages', new Date()));

    expect(await app.ctx.dispatch.reconcileBatches()).toBeGreaterThanOrEqual(1);
    const { jobs } = await app.ctx.dispatch.claim({ orgId: o.orgId, deviceId: o.phones[0]! }, 10);
    expect(jobs.map((j) => j.messageId).sort()).toEqual([old, recent].sort());
    for (const status of ['sending', 'sent', 'delivered'] as const) {
      const outcomes = await writeReports(
        app.ctx,
        [old, recent].map((messageId) => ({ deviceId: o.phones[0]!, report: { messageId, status } })),
      );
      for (const outcome of outcomes) expect(outcome).toMatchObject({ status });
    }

    for (const id of [old, recent]) {
      const got = await app.request('GET', `/v1/messages/${id}`, { key: o.key });
      expect(got.body.status).toBe('delivered');
      expect(got.body.events.map((e: { toStatus: string }) => e.toStatus)).toEqual(['queued', 'claimed', 'sending', 'sent', 'delivered']);
    }
    expect(await timelinePartitionsOf(old)).toEqual([monthName('message_events', lastMonth)]);
    // Newest first, one per page: the cursor crosses from this month into the last.
    const first = await app.request('GET', '/v1/messages?limit=1', { key: o.key });
    expect(first.body.messages.map((m: { id: string }) => m.id)).toEqual([recent]);
    const next = await app.request('GET', `/v1/messages?limit=1&before=${encodeURIComponent(first.body.nextCursor)}`, { key: o.key });
    expect(next.body.messages.map((m: { id: string }) => m.id)).toEqual([old]);
    const delivered = await app.request('GET', '/v1/messages?status=delivered', { key: o.key });
    expect(delivered.body.messages.map((m: { id: string }) => m.id)).toEqual([recent, old]);
  });

  it('lists first a message made by a server whose clock runs hours ahead', async () => {
    const o = await setup();
    const ahead = await insertAt(o.orgId, new Date(Date.now() + 3 * 60 * 60_000));
    const res = await app.request('POST', '/v1/messages', { key: o.key, body: { to: '+261341234569', body: 'now' } });
    const page = await app.request('GET', '/v1/messages', { key: o.key });
    expect(page.body.messages.map((m: { id: string }) => m.id)).toEqual([ahead, res.body.messages[0].id]);
  });

  it('makes one automatic resend of a failure of last month, however many make it at once', async () => {
    const o = await setup({ autoResend: { attempts: 1 } });
    await createPartitions(app.ctx.db, monthStart(-1), 1);
    const failed = await insertAt(o.orgId, new Date(monthStart(0).getTime() - 120_000), { status: 'failed', autoResendsLeft: 1 });
    const made = await Promise.all([resendFailed(app.ctx, [failed]), resendFailed(app.ctx, [failed]), resendFailed(app.ctx, [failed])]);
    expect(made.flat()).toHaveLength(1);
    const resend = made.flat()[0]!;
    // The resend is a message of this month, the failure one of last month: no index spans both.
    expect(await partitionOf(resend)).toBe(monthName('messages', new Date()));
    const { rows } = await app.ctx.db.query('SELECT id FROM messages WHERE resend_of_id = $1 AND auto_resend', [failed]);
    expect(rows.map((r) => r.id)).toEqual([resend]);
    expect(await resendFailed(app.ctx, [failed])).toEqual([]);
  });

  it('drops, for retention, whole months past the window and their timelines, keeping a month that still has a message to send', async () => {
    const o = await setup();
    await createPartitions(app.ctx.db, new Date('2020-01-01T00:00:00Z'), 3);
    const delivered = await insertAt(o.orgId, new Date('2020-01-20T10:00:00Z'), { status: 'delivered' });
    const queued = await insertAt(o.orgId, new Date('2020-02-10T10:00:00Z'));
    const kept = await insertAt(o.orgId, new Date('2020-03-20T10:00:00Z'), { status: 'delivered' });
    const now = new Date('2020-04-15T00:00:00Z'); // 30 days: everything before 16 March goes

    expect(await dropExpiredPartitions(app.ctx.db, now, 30)).toEqual(['messages_2020_01']);
    expect(await tableExists('messages_2020_01')).toBe(false);
    expect(await tableExists('message_events_2020_01')).toBe(false);
    expect(await tableExists('message_recipients_2020_01')).toBe(false);
    expect((await app.request('GET', `/v1/messages/${delivered}`, { key: o.key })).status).toBe(404);
    // February still holds a queued message; March ends after the window's start.
    for (const id of [queued, kept]) expect((await app.request('GET', `/v1/messages/${id}`, { key: o.key })).status).toBe(200);
    expect(await tableExists(monthName('messages', new Date()))).toBe(true);

    await app.ctx.db.query(`UPDATE messages SET status = 'expired', previous_status = status WHERE id = $1`, [queued]);
    expect(await dropExpiredPartitions(app.ctx.db, now, 30)).toEqual(['messages_2020_02']);
    expect(await tableExists('message_events_2020_02')).toBe(false);
    expect(await dropExpiredPartitions(app.ctx.db, now, 30)).toEqual([]);
    expect((await app.request('GET', `/v1/messages/${kept}`, { key: o.key })).body.events.at(-1).toStatus).toBe('delivered');
  });

  it('finishes a retention pass that died between detaching a month and dropping it', async () => {
    await createPartitions(app.ctx.db, new Date('2019-06-01T00:00:00Z'), 1);
    await app.ctx.db.query('ALTER TABLE messages DETACH PARTITION messages_2019_06');
    expect(await dropExpiredPartitions(app.ctx.db, new Date('2019-06-10T00:00:00Z'), 30)).toEqual([]);
    expect(await tableExists('messages_2019_06')).toBe(false);
    // Its timeline month was still attached and is not past the window: it stays.
    expect(await tableExists('message_events_2019_06')).toBe(true);
  });

  it('runs one upkeep pass at a time across workers: retention skips while another holds it, creation waits for it', async () => {
    await createPartitions(app.ctx.db, new Date('2018-01-01T00:00:00Z'), 1);
    const now = new Date('2018-03-15T00:00:00Z');
    const other = await app.ctx.db.connect(); // another worker's pass, in the middle of its work
    let released = false;
    try {
      await other.query('SELECT pg_advisory_lock($1)', [PARTITION_UPKEEP_LOCK]);
      expect(await dropExpiredPartitions(app.ctx.db, now, 30)).toEqual([]);
      expect(await tableExists('messages_2018_01')).toBe(true);
      const creating = createPartitions(app.ctx.db, new Date('2017-06-01T00:00:00Z'), 1);
      await eventually(
        async () => {
          const { rows } = await app.ctx.db.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, [PARTITION_UPKEEP_LOCK]);
          return rows[0].n === 1;
        },
        5000,
        'the creation waiting for the lock',
      );
      expect(await tableExists('messages_2017_06')).toBe(false);
      await other.query('SELECT pg_advisory_unlock($1)', [PARTITION_UPKEEP_LOCK]);
      released = true;
      expect(await creating).toBe(1);
    } finally {
      other.release(!released);
    }
    expect(await dropExpiredPartitions(app.ctx.db, now, 30)).toEqual(['messages_2017_06', 'messages_2018_01']);
    expect(await tableExists('message_events_2018_01')).toBe(false);
  });

  it('is run by the worker at start: with HAFATRA_MESSAGE_RETENTION_DAYS set, months past it go; without it, none', async () => {
    const o = await setup();
    await createPartitions(app.ctx.db, new Date('2016-01-01T00:00:00Z'), 1);
    const old = await insertAt(o.orgId, new Date('2016-01-20T10:00:00Z'), { status: 'delivered' });
    let drops = 0;
    await startPartitionMaintenance(app.ctx, () => drops++).stop(); // the test app's config: no retention
    expect(await partitionOf(old)).toBe('messages_2016_01');
    expect(drops).toBe(0);
    // Read once, so the API keeps its body: the drop must take it from the cache too.
    expect((await app.request('GET', `/v1/messages/${old}`, { key: o.key })).status).toBe(200);
    // stop() waits for the pass made at start.
    await startPartitionMaintenance({ ...app.ctx, config: { ...app.ctx.config, messageRetentionDays: 365 } }, () => app.ctx.changes.changedEverything()).stop();
    expect(await tableExists('messages_2016_01')).toBe(false);
    expect((await app.request('GET', `/v1/messages/${old}`, { key: o.key })).status).toBe(404);
    expect(await tableExists(monthName('messages', new Date()))).toBe(true);
  });
});

describe('migration 031 on a database holding messages', () => {
  it('keeps every message and timeline row, in place, as the first partition, with the months after it made', async () => {
    await withDatabaseBefore('031', async (db) => {
      await db.query(`INSERT INTO organizations (id, name) VALUES ('org_m031', 'm031')`);
      await db.query(
        `INSERT INTO messages (id, org_id, to_number, body, status, segments, encoding, created_at, updated_at, expires_at, resend_of_id, auto_resend)
       SELECT $1 || lpad(i::text, 14, '0'), 'org_m031', '+261341234567', 'before', 'delivered', 1, 'gsm7', now(), now(), now(),
              CASE WHEN i = 2 THEN $1 || lpad('1', 14, '0') END, i = 2
       FROM generate_series(1, 1000) AS i`,
        [idFloor('message', Date.now() - 3_600_000)],
      );
      await db.query(`INSERT INTO message_events (message_id, to_status, source, at) SELECT id, 'delivered', 'device', now() FROM messages`);
      const before = (await db.query('SELECT id, status FROM messages ORDER BY id')).rows;

      await migrate(db);
      expect((await db.query('SELECT id, status FROM messages ORDER BY id')).rows).toEqual(before);
      const homes = await db.query(`SELECT tableoid::regclass::text AS p, count(*)::int AS n FROM messages GROUP BY 1`);
      expect(homes.rows).toEqual([{ p: 'messages_before_partitioning', n: 1000 }]);
      const timelines = await db.query(`SELECT tableoid::regclass::text AS p, count(*)::int AS n FROM message_events GROUP BY 1`);
      expect(timelines.rows).toEqual([{ p: 'message_events_before_partitioning', n: 1000 }]);
      // Their recipient rows (migration 039) beside them, in a partition of the same bounds.
      const recipients = await db.query(`SELECT tableoid::regclass::text AS p, count(*)::int AS n FROM message_recipients GROUP BY 1`);
      expect(recipients.rows).toEqual([{ p: 'message_recipients_before_partitioning', n: 1000 }]);
      const partitions = (await selectPartitions(db)).filter((p) => p.table === 'messages').map((p) => p.name);
      expect(partitions).toEqual([...[1, 2, 3].map((m) => monthName('messages', monthStart(m))), 'messages_before_partitioning']);
      // New timeline rows still number on from the old ones.
      const next = await db.query(`INSERT INTO message_events (message_id, to_status, source, at) VALUES ($1, 'x', 'y', now()) RETURNING id`, [before[0].id]);
      expect(next.rows[0].id).toBe(1001);
      // The resend found by the sweep's look-up, which now reads a plain index.
      expect((await db.query('SELECT count(*)::int AS n FROM messages WHERE resend_of_id = $1 AND auto_resend', [before[0].id])).rows[0].n).toBe(1);
    });
  });
});
