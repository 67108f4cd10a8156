import pg from 'pg';
import type { AppContext } from '../../src/context/app-context.js';
import { idFloor } from '../../src/ids/ids.js';
import { note } from '../lib/progress.js';
import { createTenantOrg, insertPhones } from './local-fixtures.js';
import type { StoredMessages } from './target.js';
import { tallySeededMessages } from './seed-tallies.js';

const DAY_MS = 86_400_000;
/** The stored messages are spread over this many months before the run, as an organization's history would be. */
const MONTHS = 5;
const CHUNK = 500_000;

/**
 * `--stored N`: N messages written straight to Postgres before the API starts, in one
 * organization of their own, each with two timeline rows (sent, then its final status), their
 * ids spread evenly over the last five months (an id is its creation time: src/ids/ids.ts), so
 * that a partitioned schema fills five monthly partitions as a deployment would have. The ids
 * are computed, `idFloor(time) + i` in 14 digits, so the read scenario can pick stored ids at
 * random without reading them back. One `INSERT … SELECT generate_series` per 500,000 messages
 * (and one for their timelines), two connections at once; then tallied as a send tallies its messages.
 */
export async function seedStoredMessages(ctx: AppContext, databaseUrl: string, count: number): Promise<StoredMessages> {
  const started = Date.now();
  const { orgId, key } = await createTenantOrg(ctx);
  const [phone] = await insertPhones(ctx, orgId, 1);
  const endMs = Date.now() - 3_600_000;
  const startMs = endMs - MONTHS * 30 * DAY_MS;
  const stepMs = Math.max(1, Math.floor((endMs - startMs) / count));
  const client = await connect(databaseUrl);
  try {
    // Partitioned schemas (migration 031) need their past months; an unpartitioned one has no such function.
    const { rows } = await client.query(`SELECT to_regproc('create_message_partitions') IS NOT NULL AS partitioned`);
    if (rows[0].partitioned) await client.query('SELECT create_message_partitions($1, $2)', [new Date(startMs), MONTHS + 2]);
    const chunks = Array.from({ length: Math.ceil(count / CHUNK) }, (_, k) => [k * CHUNK, Math.min(count, (k + 1) * CHUNK)] as const);
    let done = 0;
    // Two connections, one per core: index upkeep, not the generator, is what takes the time.
    await Promise.all(
      [0, 1].map(async () => {
        const writer = await connect(databaseUrl);
        try {
          await createStoredIdFunction(writer);
          for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
            await insertChunk(writer, chunk[0], chunk[1] - 1, startMs, stepMs, orgId, phone!.deviceId);
            done += chunk[1] - chunk[0];
            note(`stored messages: ${done.toLocaleString('en')} of ${count.toLocaleString('en')} (${Math.round((Date.now() - started) / 1000)} s)`);
          }
        } finally {
          await writer.end();
        }
      }),
    );
    await tallySeededMessages(client, orgId);
    // As a deployment's stored messages would be: vacuumed (visibility map set, so that autovacuum
    // does not run through gigabytes during the measured runs) and analyzed.
    await client.query('VACUUM (ANALYZE) messages');
    await client.query('VACUUM (ANALYZE) message_events');
    await client.query('VACUUM (ANALYZE) message_recipients');
    const size = await client.query(
      // pg_partition_tree has no row for a table that is not partitioned (before migration 031).
      `SELECT coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('messages')), pg_total_relation_size('messages'))::bigint AS messages,
              coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('message_events')), pg_total_relation_size('message_events'))::bigint AS events`,
    );
    const seconds = (Date.now() - started) / 1000;
    const { messages, events } = size.rows[0] as { messages: number; events: number };
    note(`stored messages: ${count.toLocaleString('en')} in ${seconds.toFixed(0)} s; messages ${(messages / 2 ** 30).toFixed(2)} GiB, timelines ${(events / 2 ** 30).toFixed(2)} GiB`);
    return { key, count, seedSeconds: seconds, messagesBytes: messages, timelineBytes: events, idOf: (i) => storedMessageId(startMs + i * stepMs, i) };
  } finally {
    await client.end();
  }
}

async function connect(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, statement_timeout: 0 });
  await client.connect();
  return client;
}

/** pg_temp.stored_id(ms, i): the id of stored message i, as storedMessageId makes it; one expression, which Postgres inlines. */
async function createStoredIdFunction(client: pg.Client): Promise<void> {
  const a = `'0123456789ABCDEFGHJKMNPQRSTVWXYZ'`;
  const char = (shift: number) => `substr(${a}, ((ms >> ${shift}) & 31)::int + 1, 1)`;
  await client.query(`CREATE FUNCTION pg_temp.stored_id(ms bigint, i bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT 'msg_' || ${[45, 40, 35, 30, 25, 20, 15, 10, 5, 0].map(char).join(' || ')} || lpad(i::text, 14, '0') $$`);
}

/** Stored messages first..last (mostly delivered, over 50,000 recipients), then their timelines. */
async function insertChunk(client: pg.Client, first: number, last: number, startMs: number, stepMs: number, orgId: string, deviceId: string): Promise<void> {
  const params = [first, last, startMs, stepMs];
  await client.query(
    `INSERT INTO messages (id, org_id, to_number, body, status, segments, encoding, device_id, batch_id, failure_code,
       created_at, updated_at, claimed_at, sent_at, delivered_at, failed_at, expires_at)
     SELECT pg_temp.stored_id($3 + i * $4, i), $5, '+26134' || lpad((i % 50000)::text, 7, '0'), 'Salama, stored message ' || i, s.status,
       1, 'gsm7', $6, 'bat_stored' || (i / 500), CASE WHEN s.status = 'failed' THEN 'no_service' END,
       t, t + interval '9 seconds', t + interval '1 second', t + interval '3 seconds',
       CASE WHEN s.status = 'delivered' THEN t + interval '9 seconds' END, CASE WHEN s.status = 'failed' THEN t + interval '3 seconds' END, t + interval '1 day'
     FROM generate_series($1::bigint, $2::bigint) AS i,
       LATERAL (SELECT to_timestamp(($3 + i * $4) / 1000.0) AS t) AS at,
       LATERAL (SELECT CASE WHEN i % 100 < 85 THEN 'delivered' WHEN i % 100 < 90 THEN 'sent' WHEN i % 100 < 95 THEN 'failed'
                            WHEN i % 100 < 98 THEN 'expired' ELSE 'cancelled' END AS status) AS s`,
    [...params, orgId, deviceId],
  );
  // Each message's recipient row (migration 039), as a send writes it.
  await client.query(
    `INSERT INTO message_recipients (org_id, to_number, message_id)
     SELECT $5, '+26134' || lpad((i % 50000)::text, 7, '0'), pg_temp.stored_id($3 + i * $4, i) FROM generate_series($1::bigint, $2::bigint) AS i`,
    [...params, orgId],
  );
  await client.query(
    `INSERT INTO message_events (message_id, from_status, to_status, source, device_id, at)
     SELECT pg_temp.stored_id($3 + i * $4, i), e.from_status, e.to_status, 'device', $5, to_timestamp(($3 + i * $4) / 1000.0) + e.after
     FROM generate_series($1::bigint, $2::bigint) AS i,
       LATERAL (VALUES ('sending', 'sent', interval '3 seconds'),
                       ('sent', CASE WHEN i % 100 < 85 THEN 'delivered' WHEN i % 100 < 90 THEN NULL WHEN i % 100 < 95 THEN 'failed'
                                     WHEN i % 100 < 98 THEN 'expired' ELSE 'cancelled' END, interval '9 seconds')) AS e(from_status, to_status, after)
     WHERE e.to_status IS NOT NULL`,
    [...params, deviceId],
  );
}

/** The id pg_temp.stored_id gives stored message i, made at `ms`. */
const storedMessageId = (ms: number, i: number) => `${idFloor('message', ms)}${String(i).padStart(14, '0')}`;
