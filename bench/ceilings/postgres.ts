import pg from 'pg';
import { newId, newIds } from '../../src/ids/ids.js';
import { recipients, RECIPIENTS_PER_POST } from '../lib/recipients.js';
import { timed } from '../lib/progress.js';

const SCRATCH = 'bench_messages_ceiling';
const SCRATCH_RECIPIENTS = 'bench_message_recipients_ceiling';

/**
 * The Postgres ceiling: 500-row batches inserted with one UNNEST statement each (the API's own
 * method) into a scratch table shaped like messages (same columns, defaults and indexes, no
 * foreign key), with each row's recipient row in one shaped like message_recipients (migration 039:
 * what was an index of messages before it), from `parallel` connections for `seconds`. Returns
 * rows per second.
 */
export async function measurePostgresInsert(databaseUrl: string, seconds: number, parallel = 4): Promise<number> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: parallel });
  try {
    await pool.query(`DROP TABLE IF EXISTS ${SCRATCH}, ${SCRATCH_RECIPIENTS}`);
    await pool.query(`CREATE TABLE ${SCRATCH} (LIKE messages INCLUDING DEFAULTS INCLUDING INDEXES)`);
    await pool.query(`CREATE TABLE ${SCRATCH_RECIPIENTS} (LIKE message_recipients INCLUDING DEFAULTS INCLUDING INDEXES)`);
    const to = recipients(RECIPIENTS_PER_POST);
    let rows = 0;
    const deadline = Date.now() + seconds * 1000;
    const started = Date.now();
    const loop = async () => {
      while (Date.now() < deadline) {
        await insertBatch(pool, to);
        rows += to.length;
      }
    };
    await timed('ceiling postgres UNNEST ×500', seconds, Promise.all(Array.from({ length: parallel }, loop)));
    return rows / ((Date.now() - started) / 1000);
  } finally {
    await pool.query(`DROP TABLE IF EXISTS ${SCRATCH}, ${SCRATCH_RECIPIENTS}`).catch(() => undefined);
    await pool.end();
  }
}

async function insertBatch(pool: pg.Pool, to: string[]): Promise<void> {
  const now = new Date();
  const expires = new Date(now.getTime() + 86_400_000);
  const batchId = newId('batch');
  const n = to.length;
  const fill = <T>(v: T) => Array.from({ length: n }, () => v);
  await pool.query(
    `WITH recipients AS (INSERT INTO ${SCRATCH_RECIPIENTS} (org_id, to_number, message_id) SELECT ($2::text[])[1], to_number, id FROM unnest($1::text[], $3::text[]) AS t(id, to_number))
     INSERT INTO ${SCRATCH} (id, org_id, to_number, body, status, segments, encoding, batch_id, created_at, updated_at, expires_at)
     SELECT id, org_id, to_number, body, status, segments, encoding, batch_id, created_at, created_at, expires_at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[],
       $9::timestamptz[], $10::timestamptz[])
       AS t(id, org_id, to_number, body, status, segments, encoding, batch_id, created_at, expires_at)`,
    [newIds('message', n), fill('org_bench'), to, fill('Hafatra bench: your code is 482913.'), fill('accepted'), fill(1), fill('gsm7'), fill(batchId), fill(now), fill(expires)],
  );
}
