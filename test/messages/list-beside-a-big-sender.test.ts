import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { messagePageQuery } from '../../src/messages/sql/select-message-page.js';
import type { MessageStatus } from '../../src/messages/message.js';

/**
 * A deployment with one big sender: its messages are nearly every row, so Postgres's statistics
 * say every message belongs to one organization. The message list of a small organization
 * beside it must still read its own rows only, in every shape (all statuses or one, first page
 * or next), with the plans the hot pool keeps (generic, made once per connection). Measured in
 * pages read from Postgres's buffers, not in time: the counts do not move with the machine's load.
 */
let app: TestApp;
let small: { orgId: string; key: string; ids: string[] };
let bigOrgId: string;
const BIG = 60_000;

beforeAll(async () => {
  app = await startTestApp();
  bigOrgId = (await app.createOrg()).org.id;
  // The big sender's history, all delivered, written straight to Postgres (ids of the last minute).
  await app.ctx.db.query(
    `INSERT INTO messages (id, org_id, to_number, body, status, segments, encoding, created_at, updated_at, expires_at)
     SELECT message_id_floor(now() - i * interval '1 millisecond') || lpad(i::text, 14, '0'), $1, '+261340000001', 'history ' || i,
       'delivered', 1, 'gsm7', now(), now(), now() + interval '1 day'
     FROM generate_series(1, $2::int) AS i`,
    [bigOrgId, BIG],
  );
  await app.ctx.db.query('ANALYZE messages');
  const { org, key } = await app.createOrg();
  await insertTestDevice(app.ctx, org.id);
  const res = await app.request('POST', '/v1/messages', { key, body: { to: ['+261340000002', '+261340000003', '+261340000004'], body: 'small' } });
  expect(res.status).toBe(202);
  small = { orgId: org.id, key, ids: res.body.messages.map((m: { id: string }) => m.id) };
}, 60_000);
afterAll(() => app.close());

/** Shared buffers one execution of a page statement touched, on a hot-pool connection as the API runs it. */
async function buffersRead(status: MessageStatus | undefined, orgId: string, before: string | null): Promise<{ rows: number; buffers: number }> {
  const client = await app.ctx.hotDb.connect();
  try {
    // The statement the API prepares for this page, a first page bounded a day ahead as the API bounds it.
    const { text, values } = messagePageQuery({ orgId, status, before, limit: 50 });
    await client.query(`PREPARE page(text, int, text) AS ${text}`);
    const args = values.map((v) => (typeof v === 'number' ? String(v) : `'${v}'`)).join(', ');
    const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE page(${args})`);
    const plan = rows[0]['QUERY PLAN'][0].Plan;
    return { rows: plan['Actual Rows'], buffers: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'] };
  } finally {
    await client.query('DEALLOCATE ALL').catch(() => undefined);
    client.release();
  }
}

describe('a small organization’s message list beside a big sender', () => {
  it('answers its own messages, newest first, through the API', async () => {
    const res = await app.request('GET', '/v1/messages?limit=2', { key: small.key });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: string }) => m.id)).toEqual([small.ids[2], small.ids[1]]);
    const next = await app.request('GET', `/v1/messages?limit=2&before=${encodeURIComponent(res.body.nextCursor)}`, { key: small.key });
    expect(next.body.messages.map((m: { id: string }) => m.id)).toEqual([small.ids[0]]);
    expect(next.body.nextCursor).toBeNull();
  });

  it.each([
    ['every status, first page', undefined, false],
    ['every status, next page', undefined, true],
    ['delivered (the big sender’s only status), first page', 'delivered', false],
    ['delivered, next page', 'delivered', true],
    ['queued, first page', 'queued', false],
  ] as const)('reads a handful of pages, not the big sender’s rows: %s', async (_, status, next) => {
    const before = next ? small.ids[2]! : null;
    const { rows, buffers } = await buffersRead(status, small.orgId, before);
    const expected = status === 'delivered' ? 0 : next ? 2 : 3;
    expect(rows).toBe(expected);
    // A walk of the primary key through the big sender's rows reads well over a thousand.
    expect(buffers).toBeLessThan(200);
  });

  it('reads a page of the big sender without walking its history', async () => {
    const { rows, buffers } = await buffersRead(undefined, bigOrgId, null);
    expect(rows).toBe(51);
    expect(buffers).toBeLessThan(300);
  });
});
