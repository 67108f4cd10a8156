import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';

// The reads clients poll run on the hot pool, whose connections keep each statement's generic
// plan. Left to choose, Postgres priced the by-id join over the monthly partitions above a
// custom plan and planned it afresh at every call: GET by id cost Postgres three times its time.
let app: TestApp;
let key: string;
let ids: string[];

beforeAll(async () => {
  // Every GET reads Postgres: the cache of message bodies would answer the repeats.
  app = await startTestApp({ messageCacheEntries: 0 });
  const { org, key: k } = await app.createOrg();
  key = k;
  await insertTestDevice(app.ctx, org.id);
  const res = await app.request('POST', '/v1/messages', { key, body: { to: ['+261340000001', '+261340000002', '+261340000003'], body: 'plans' } });
  ids = res.body.messages.map((m: { id: string }) => m.id);
});
afterAll(() => app.close());

/** A statement's plans, summed over every connection of a pool (each prepares its own). */
async function plans(pool: pg.Pool, statement: string): Promise<{ generic: number; custom: number }> {
  const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
  try {
    const counts = { generic: 0, custom: 0 };
    for (const c of clients) {
      const { rows } = await c.query('SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = $1', [statement]);
      for (const r of rows as { generic: number; custom: number }[]) {
        counts.generic += r.generic;
        counts.custom += r.custom;
      }
    }
    return counts;
  } finally {
    for (const c of clients) c.release();
  }
}

describe('reads clients poll', () => {
  it('look messages up by id on the hot pool with one kept plan, never planned per call', async () => {
    for (let i = 0; i < 8; i++) expect((await app.request('GET', `/v1/messages/${ids[i % 3]}`, { key })).status).toBe(200);
    const hot = await plans(app.ctx.hotDb, 'select-message-details');
    expect(hot.custom).toBe(0);
    expect(hot.generic).toBeGreaterThanOrEqual(8);
    expect(await plans(app.ctx.db, 'select-message-details')).toEqual({ generic: 0, custom: 0 });
  });

  it('list a page on the hot pool with one kept plan', async () => {
    for (let i = 0; i < 8; i++) expect((await app.request('GET', '/v1/messages?limit=100', { key })).body.messages).toHaveLength(3);
    const hot = await plans(app.ctx.hotDb, 'message-page-all');
    expect(hot.custom).toBe(0);
    expect(hot.generic).toBeGreaterThanOrEqual(8);
  });
});
