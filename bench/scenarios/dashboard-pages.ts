import pg from 'pg';
import { runLoad, type LoadResult } from '../lib/load.js';
import { NotAvailable, type Figure } from '../lib/results.js';
import type { Scenario } from './scenario.js';
import { tallySeededMessages } from '../target/seed-tallies.js';
import { hashSecret } from '../../src/auth/api-key-secret.js';
import { insertSession } from '../../src/auth/sql/insert-session.js';
import { newId } from '../../src/ids/ids.js';

/**
 * A search reads a fixed window of the newest 100,000 messages (src/search/search.ts), not an
 * index range as the pages do: its cost is that window's, whatever the number stored.
 */
const SEARCH_GOAL_MS = 100;

/** Rows seeded in the large organization: BENCH_DASHBOARD_ROWS, else 2,000,000 (20,000 with --quick). */
const rowsToSeed = (quick: boolean) => Number(process.env.BENCH_DASHBOARD_ROWS ?? (quick ? 20_000 : 2_000_000));
const SMALL_ROWS = 10;
const DEVICES = 5;

/**
 * Messages written straight to Postgres in one statement per 250,000 (the API would measure
 * sending): spread over the last 7 days, mostly delivered, over 5 phones and 50,000 recipients,
 * then tallied for the Overview as a send tallies its messages.
 */
async function seed(db: pg.Pool, orgId: string, idPrefix: string, count: number, devices: string[]): Promise<void> {
  const CHUNK = 250_000;
  // The ids' time part is their prefix then zeros ('msg_01…' is November 2004): a schema with
  // messages partitioned by month (migration 031) needs that month's partition.
  const { rows } = await db.query(`SELECT to_regproc('create_message_partitions') IS NOT NULL AS partitioned`);
  if (rows[0].partitioned) await db.query('SELECT create_message_partitions($1, 1)', [new Date(idTimeMs(idPrefix))]);
  for (let from = 0; from < count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK);
    await db.query(
      `INSERT INTO messages (id, org_id, to_number, body, status, segments, encoding, device_id, created_at, updated_at, expires_at)
       SELECT $6 || lpad(i::text, 22, '0'), $1, '+26134' || lpad((i % 50000)::text, 7, '0'), 'Salama ' || i,
              (ARRAY['delivered','delivered','delivered','delivered','delivered','delivered','sent','failed','expired','cancelled'])[1 + i % 10],
              1, 'gsm7', ($4::text[])[1 + i % array_length($4::text[], 1)], t, t, t + interval '1 day'
         FROM generate_series($2::int, $3::int - 1) AS i, LATERAL (SELECT now() - interval '7 days' + (i::float / $5) * interval '7 days' AS t) AS at`,
      [orgId, from, to, devices, count, idPrefix],
    );
  }
  // Each message's recipient row, as a send writes it (a schema from before migration 039 has none).
  const { rows: recipients } = await db.query(`SELECT to_regclass('message_recipients') IS NOT NULL AS present`);
  if (recipients[0].present) {
    await db.query('INSERT INTO message_recipients (org_id, to_number, message_id) SELECT org_id, to_number, id FROM messages WHERE org_id = $1', [orgId]);
    await db.query('ANALYZE message_recipients');
  }
  await tallySeededMessages(db, orgId);
  await db.query('ANALYZE messages');
}

/** The milliseconds of an id made of `prefix` and digits: its 10 time characters are the prefix's, then zeros. */
function idTimeMs(prefix: string): number {
  const time = prefix.slice(4).padEnd(10, '0').slice(0, 10);
  return [...time].reduce((ms, c) => ms * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c), 0);
}

async function orgOfKey(db: pg.Pool, key: string): Promise<string> {
  const { rows } = await db.query('SELECT org_id FROM api_keys WHERE secret_hash = $1', [hashSecret(key)]);
  return rows[0].org_id as string;
}

/** A signed-in owner of the organization, for the dashboard's own routes: its Cookie header. */
async function memberCookie(db: pg.Pool, orgId: string): Promise<string> {
  const memberId = newId('member');
  await db.query('INSERT INTO members (id, email) VALUES ($1, $2)', [memberId, `${memberId.toLowerCase()}@bench.invalid`]);
  await db.query(`INSERT INTO memberships (org_id, member_id, role) VALUES ($1, $2, 'owner')`, [orgId, memberId]);
  const { token } = await insertSession(db, { memberId, orgId }, { idleMinutes: 60, maxHours: 24 });
  return `hafatra_session=${token}`;
}

export const dashboardPages: Scenario = {
  name: 'dashboard-pages',
  method:
    'Seeds one organization with millions of messages (2,000,000 by default, BENCH_DASHBOARD_ROWS) and another with 10, ' +
    "then times each call the Messages and Overview pages make, one connection at a time (loopback: the time is the server's): " +
    'the first page, a status filter, a phone filter, a recipient filter, a page deep in the list (by cursor), one message by id, the overview, the 7-day chart, ' +
    'and the search box: a rare text, part of a number, and a word every message holds.',
  async run({ target, settings }) {
    if (!target.databaseUrl) throw new NotAvailable('needs the local server (it seeds Postgres directly)');
    const [big, small] = await target.tenants(2);
    const db = new pg.Pool({ connectionString: target.databaseUrl, max: 2 });
    const rows = rowsToSeed(settings.quick);
    const seeded: Record<string, { headers: Record<string, string>; devices: string[]; idPrefix: string }> = {};
    let seedSeconds = 0;
    try {
      for (const [name, tenant, count, idPrefix] of [
        ['large', big!, rows, 'msg_01'],
        ['small', small!, SMALL_ROWS, 'msg_02'],
      ] as const) {
        const orgId = await orgOfKey(db, tenant.key);
        const devices = Array.from({ length: DEVICES }, () => newId('device'));
        await db.query(`INSERT INTO devices (id, org_id, name) SELECT unnest($1::text[]), $2, 'Seeded phone'`, [devices, orgId]);
        const started = Date.now();
        await seed(db, orgId, idPrefix, count, devices);
        if (name === 'large') seedSeconds = (Date.now() - started) / 1000;
        seeded[name] = { headers: { cookie: await memberCookie(db, orgId) }, devices, idPrefix };
      }
    } finally {
      await db.end();
    }
    const seconds = Math.max(1, Math.min(settings.seconds, 5));
    const calls = (devices: string[], deep: string, idPrefix: string): [string, string][] => [
      ['first page', '/v1/messages?limit=50'],
      ['by status', '/v1/messages?limit=50&status=failed'],
      ['by phone', `/v1/messages?limit=50&deviceId=${devices[2]}`],
      ['by recipient', '/v1/messages?limit=50&to=%2B261340012345'],
      ['deep page', `/v1/messages?limit=50&before=${deep}`],
      ['one message', `/v1/messages/${idPrefix}${'7'.padStart(22, '0')}`],
      ['overview', '/dashboard/v1/overview'],
      ['7-day chart', '/dashboard/v1/stats/messages?range=7d'],
      // The search box: a rare text (a few rows), part of a number (1 in 50,000 recipients), and a
      // word every message holds (the newest 50 of millions).
      ['search rare text', '/dashboard/v1/search/messages?q=Salama%201234567'],
      ['search number part', '/dashboard/v1/search/messages?q=0012345'],
      ['search common word', '/dashboard/v1/search/messages?q=Salama'],
    ];
    const figures: Figure[] = [];
    const details: Record<string, LoadResult> = {};
    for (const name of ['large', 'small'] as const) {
      const { headers, devices, idPrefix } = seeded[name]!;
      // The cursor of a page half-way down the list: the API's own encoding of an id.
      const middle = `${idPrefix}${String(Math.floor((name === 'large' ? rows : SMALL_ROWS) / 2)).padStart(22, '0')}`;
      const deep = Buffer.from(JSON.stringify({ b: middle })).toString('base64url');
      for (const [label, path] of calls(devices, deep, idPrefix)) {
        const r = await runLoad({ label: `${name} ${label}`, url: `${target.url}${path}`, method: 'GET', connections: 1, seconds, headers });
        if (r.non2xx > 0) throw new Error(`${label} (${name}): ${r.non2xx} answers were not 2xx`);
        details[`${name} ${label}`] = r;
        const key = `dashboard-pages.${name}.${label.replace(/\W+/g, '-')}`;
        figures.push({ key: `${key}.p50`, label: `${label}, ${name === 'large' ? `${rows.toLocaleString('en')} messages` : `${SMALL_ROWS} messages`}: p50`, value: r.p50, unit: 'ms' });
        figures.push({
          key: `${key}.p99`,
          label: `${label}, ${name === 'large' ? `${rows.toLocaleString('en')}` : `${SMALL_ROWS}`} messages: p99`,
          value: r.p99,
          unit: 'ms',
          goal: { op: '<=', value: label.startsWith('search') ? SEARCH_GOAL_MS : 50 },
        });
      }
    }
    figures.push({ key: 'dashboard-pages.seedSeconds', label: `seeding ${rows.toLocaleString('en')} messages (SQL, with their tallies)`, value: seedSeconds, unit: 's' });
    return { figures, details };
  },
};
