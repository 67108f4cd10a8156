import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { withDatabaseBefore } from '../support/database-before-migration.js';
import { idFloor } from '../../src/ids/ids.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { selectSentToNumber } from '../../src/conversations/sql/select-sent-to-number.js';

describe('messages by recipient (migration 039)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('writes one recipient row per message at the send, and no status change rewrites it', async () => {
    const { org, key } = await app.createOrg();
    await insertTestDevice(app.ctx, org.id);
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: ['+261341110001', '+261341110002', '+261341110001'], body: 'Salama' } });
    expect(sent.status).toBe(202);
    const ids: string[] = sent.body.messages.map((m: { id: string }) => m.id);
    const rows = async () => (await app.ctx.db.query('SELECT message_id, to_number, xmin::text AS version FROM message_recipients WHERE org_id = $1 ORDER BY message_id', [org.id])).rows;
    const before = await rows();
    expect(before.map((r) => [r.message_id, r.to_number])).toEqual([
      [ids[0], '+261341110001'],
      [ids[1], '+261341110002'],
      [ids[2], '+261341110001'],
    ]);
    // The messages move on (cancelled here); their recipient rows are the same row versions.
    for (const id of ids) expect((await app.request('POST', `/v1/messages/${id}/cancel`, { key })).status).toBe(200);
    expect(await rows()).toEqual(before);
    const { rows: indexes } = await app.ctx.db.query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'messages' AND indexdef LIKE '%to_number%'`);
    expect(indexes).toEqual([]);
    // Read back by number, newest first, and filtered by status.
    expect((await selectSentToNumber(app.ctx.db, org.id, '+261341110001', 10)).map((m) => m.id)).toEqual([ids[2], ids[0]]);
    const page = await app.request('GET', '/v1/messages?to=%2B261341110001&status=cancelled&limit=1', { key });
    expect(page.body.messages.map((m: { id: string }) => m.id)).toEqual([ids[2]]);
    const next = await app.request('GET', `/v1/messages?to=%2B261341110001&status=cancelled&limit=1&before=${page.body.nextCursor}`, { key });
    expect(next.body.messages.map((m: { id: string }) => m.id)).toEqual([ids[0]]);
    expect((await app.request('GET', '/v1/messages?to=%2B261341110001&status=queued', { key })).body.messages).toEqual([]);
  });

  it('another organization sending to the same number sees only its own messages', async () => {
    const a = await app.createOrg();
    const b = await app.createOrg();
    for (const o of [a, b]) await insertTestDevice(app.ctx, o.org.id);
    const fromA = await app.request('POST', '/v1/messages', { key: a.key, body: { to: ['+261341110009'], body: 'A' } });
    await app.request('POST', '/v1/messages', { key: b.key, body: { to: ['+261341110009'], body: 'B' } });
    const page = await app.request('GET', '/v1/messages?to=%2B261341110009', { key: a.key });
    expect(page.body.messages.map((m: { id: string }) => m.id)).toEqual([fromA.body.messages[0].id]);
  });

  it('gives the messages a database already holds their recipient rows, in the partitions of their months', async () => {
    const at = Date.now();
    await withDatabaseBefore('039', async (db) => {
      await db.query(`INSERT INTO organizations (id, name) VALUES ('org_m039', 'm039')`);
      await db.query(
        `INSERT INTO messages (id, org_id, to_number, body, status, segments, encoding, created_at, updated_at, expires_at)
       SELECT $1 || lpad(i::text, 14, '0'), 'org_m039', '+26134' || lpad((i % 3)::text, 7, '0'), 'before', 'delivered', 1, 'gsm7', now(), now(), now()
       FROM generate_series(1, 300) AS i`,
        [idFloor('message', at)],
      );
      await migrate(db);
      const homes = await db.query(`SELECT tableoid::regclass::text AS p, count(*)::int AS n FROM message_recipients GROUP BY 1`);
      const month = new Date(at);
      expect(homes.rows).toEqual([{ p: `message_recipients_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`, n: 300 }]);
      const found = await selectSentToNumber(db, 'org_m039', '+261340000001', 5);
      const expected = (await db.query(`SELECT id FROM messages WHERE to_number = '+261340000001' ORDER BY id DESC LIMIT 5`)).rows.map((r) => r.id);
      expect(found.map((m) => m.id)).toEqual(expected);
      expect(expected).toHaveLength(5);
    });
  });
});
