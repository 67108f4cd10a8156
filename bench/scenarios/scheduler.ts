import pg from 'pg';
import { Redis } from 'ioredis';
import { recipients, RECIPIENTS_PER_POST } from '../lib/recipients.js';
import { note, status } from '../lib/progress.js';
import type { Figure } from '../lib/results.js';
import { MAX_DAILY_LIMIT } from '../target/local-fixtures.js';
import type { Scenario } from './scenario.js';

/** Messages scheduled for the same due time: a million in full mode (BENCH_SCHEDULER_MESSAGES to change it). */
const FULL_MESSAGES = Number(process.env.BENCH_SCHEDULER_MESSAGES ?? 1_000_000);
const QUICK_MESSAGES = 5_000;
/** POSTs in flight at once while scheduling (the bulk-send sweep's best is around this). */
const POST_CONNECTIONS = 16;
/** Organizations needed: each takes MAX_DAILY_LIMIT messages a day (minus one POST for safety). */
const POSTS_PER_ORG = Math.floor(MAX_DAILY_LIMIT / RECIPIENTS_PER_POST) - 1;

/**
 * The due time must be after the last POST: the scheduling rate is estimated low (10,000 msg/s;
 * bulk-send measures 25,000 to 60,000) and 10 s are added (2 s in --quick). A run whose POSTs end after the due
 * time says so (`postsEndedAfterDue`), and its latencies then include batches posted late.
 */
const dueLeadMs = (messages: number, quick: boolean) => Math.ceil(messages / 10) + (quick ? 2_000 : 10_000);

export const scheduler: Scenario = {
  name: 'scheduler',
  method:
    `Schedules ${FULL_MESSAGES.toLocaleString('en-US')} messages (--quick: ${QUICK_MESSAGES.toLocaleString('en-US')}) for one due time: POSTs of 500 recipients with the same sendAt, ` +
    `${POST_CONNECTIONS} in flight, keys rotating over organizations at the daily limit. While they wait, it measures what a waiting message costs: Postgres ` +
    "(growth of the messages table and its indexes, and the scheduler's partial index, per message) and Redis (the schedule's sorted set per batch, and used_memory " +
    "growth per message). After the due time it waits until none is left `accepted`, then reads each message's timeline `accepted → queued` entry from Postgres: " +
    'time from due to queued p50/p99/max, and the wall time from due until the last one was seen queued (polled every 200 ms). Local server only for the costs and latencies.',
  async run({ target, settings }) {
    const messages = settings.quick ? QUICK_MESSAGES : FULL_MESSAGES;
    const posts = Math.ceil(messages / RECIPIENTS_PER_POST);
    const tenants = await target.tenants(Math.ceil(posts / POSTS_PER_ORG));
    const db = target.databaseUrl ? new pg.Pool({ connectionString: target.databaseUrl, max: 2 }) : null;
    const redis = target.redisUrl ? new Redis(target.redisUrl) : null;
    try {
      const before = db && redis ? await costs(db, redis) : null;
      const dueAt = Date.now() + dueLeadMs(messages, settings.quick);
      const sendAt = new Date(dueAt).toISOString();
      const started = Date.now();
      let next = 0;
      let refused = 0;
      const poster = async () => {
        for (let i = next++; i < posts; i = next++) {
          const body = JSON.stringify({ to: recipients(RECIPIENTS_PER_POST, (i * RECIPIENTS_PER_POST) % 9_000_000), body: 'Hafatra bench: see you at 10.', sendAt });
          const res = await fetch(`${target.url}/v1/messages`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tenants[Math.floor(i / POSTS_PER_ORG)]!.key}`, 'content-type': 'application/json' },
            body,
          });
          await res.arrayBuffer();
          if (res.status !== 202) refused += 1;
          if (i % 100 === 0) status(`scheduler: ${i}/${posts} POSTs`);
        }
      };
      await Promise.all(Array.from({ length: POST_CONNECTIONS }, poster));
      const postSeconds = (Date.now() - started) / 1000;
      const postsEndedAfterDue = Date.now() > dueAt;
      note(`scheduler: ${posts} POSTs (${messages} messages) in ${postSeconds.toFixed(1)} s${refused ? `, ${refused} refused` : ''}${postsEndedAfterDue ? ', ended AFTER the due time' : ''}`);
      const figures: Figure[] = [
        { key: 'scheduler.messages', label: 'messages scheduled for one due time', value: messages - refused * RECIPIENTS_PER_POST, unit: 'msg' },
        {
          key: 'scheduler.scheduledPerSecond',
          label: `messages scheduled/s (POSTs of 500, ${POST_CONNECTIONS} in flight)`,
          value: (messages - refused * RECIPIENTS_PER_POST) / postSeconds,
          unit: 'msg/s',
        },
      ];
      if (!db || !redis || !before) return { figures, details: { posts, refused, postSeconds, postsEndedAfterDue, note: 'remote: no costs or latencies' } };

      const waiting = await costs(db, redis);
      const accepted = Number((await db.query(`SELECT count(*) AS n FROM messages WHERE send_at = $1 AND status = 'accepted'`, [new Date(dueAt)])).rows[0].n);
      const batches = Math.max(1, waiting.dueMembers);
      figures.push(
        {
          key: 'scheduler.postgresBytesPerWaitingMessage',
          label: 'Postgres bytes per waiting message (messages table + indexes growth)',
          value: (waiting.tableBytes - before.tableBytes) / Math.max(1, accepted),
          unit: 'B',
        },
        {
          key: 'scheduler.indexBytesPerWaitingMessage',
          label: "of which the scheduler's partial index (messages_scheduled)",
          value: (waiting.scheduledIndexBytes - before.scheduledIndexBytes) / Math.max(1, accepted),
          unit: 'B',
        },
        { key: 'scheduler.redisBytesPerWaitingBatch', label: "Redis bytes per waiting batch of 500 (the schedule's sorted set)", value: waiting.dueKeyBytes / batches, unit: 'B' },
        { key: 'scheduler.redisBytesPerWaitingMessage', label: 'Redis used_memory growth per waiting message', value: (waiting.usedMemory - before.usedMemory) / Math.max(1, accepted), unit: 'B' },
      );

      while (Date.now() < dueAt) {
        status(`scheduler: due in ${((dueAt - Date.now()) / 1000).toFixed(0)} s`);
        await new Promise((r) => setTimeout(r, Math.min(1_000, dueAt - Date.now())));
      }
      let lastSeen = dueAt;
      for (;;) {
        const left = Number((await db.query(`SELECT count(*) AS n FROM messages WHERE send_at = $1 AND status = 'accepted'`, [new Date(dueAt)])).rows[0].n);
        lastSeen = Date.now();
        if (left === 0) break;
        status(`scheduler: ${left} still accepted ${((Date.now() - dueAt) / 1000).toFixed(1)} s after due`);
        if (Date.now() - dueAt > 600_000) throw new Error(`${left} messages still accepted 10 minutes after their due time`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const { rows } = await db.query(
        `SELECT count(*)::int AS n,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM e.at - m.send_at) * 1000) AS p50,
           percentile_disc(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM e.at - m.send_at) * 1000) AS p99,
           max(extract(epoch FROM e.at - m.send_at) * 1000) AS max
         FROM messages m JOIN message_events e ON e.message_id = m.id AND e.from_status = 'accepted' AND e.to_status = 'queued'
         WHERE m.send_at = $1`,
        [new Date(dueAt)],
      );
      const lat = rows[0] as { n: number; p50: number; p99: number; max: number };
      figures.push(
        { key: 'scheduler.dueToQueued.p50', label: 'due → queued p50 (timeline entry)', value: Number(lat.p50), unit: 'ms' },
        { key: 'scheduler.dueToQueued.p99', label: 'due → queued p99 (timeline entry)', value: Number(lat.p99), unit: 'ms', goal: { op: '<=', value: 60_000 } },
        { key: 'scheduler.dueToQueued.max', label: 'due → queued max (timeline entry)', value: Number(lat.max), unit: 'ms' },
        { key: 'scheduler.dueToAllQueued', label: 'due → none left accepted (wall clock, polled)', value: lastSeen - dueAt, unit: 'ms', goal: { op: '<=', value: 60_000 } },
      );
      return { figures, details: { posts, refused, postSeconds, postsEndedAfterDue, queuedMessages: lat.n, before, waiting } };
    } finally {
      await db?.end();
      redis?.disconnect();
    }
  },
};

interface Costs {
  tableBytes: number;
  scheduledIndexBytes: number;
  dueKeyBytes: number;
  dueMembers: number;
  usedMemory: number;
}

async function costs(db: pg.Pool, redis: Redis): Promise<Costs> {
  const { rows } = await db.query(`SELECT pg_total_relation_size('messages') AS t, pg_relation_size('messages_scheduled') AS i`);
  let dueKeyBytes = 0;
  let dueMembers = 0;
  let cursor = '0';
  do {
    const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', '*{sched}:due', 'COUNT', 1000);
    cursor = nextCursor;
    for (const key of keys) {
      dueKeyBytes += Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
      dueMembers += await redis.zcard(key);
    }
  } while (cursor !== '0');
  const info = await redis.info('memory');
  const usedMemory = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
  return { tableBytes: Number(rows[0].t), scheduledIndexBytes: Number(rows[0].i), dueKeyBytes, dueMembers, usedMemory };
}
