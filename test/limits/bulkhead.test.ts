import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { pairTestPhone } from '../support/phones.js';
import { signedInMember } from '../support/members.js';
import { Bulkhead } from '../../src/limits/bulkhead.js';

/**
 * Bulkheads: one organization's requests beyond its share of the process wait in its own line,
 * and past that get a fast 429, while another organization's requests go straight through.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ orgConcurrency: 1 });
});
afterAll(() => app.close());

const limitedCount = async (limit: string) => (await app.ctx.metrics.limitedRequests.get()).values.find((v) => v.labels.limit === limit)?.value ?? 0;

describe('the organization bulkhead', () => {
  it("refuses one organization's excess with 429 while another's requests all pass", async () => {
    const a = await app.createOrg({ dailyLimit: 100_000 });
    const b = await app.createOrg({ dailyLimit: 100_000 });
    await Promise.all([pairTestPhone(app, a.org.id), pairTestPhone(app, b.org.id)]);
    const to = Array.from({ length: 500 }, (_, i) => `+2613420${String(i).padStart(5, '0')}`);
    const before = await limitedCount('organization');
    const flood = Promise.all(Array.from({ length: 60 }, () => app.request('POST', '/v1/messages', { key: a.key, body: { to, body: 'bulk' } })));
    const neighbour = await Promise.all(Array.from({ length: 10 }, () => app.request('GET', '/v1/messages?limit=5', { key: b.key })));
    const answers = await flood;
    expect(neighbour.map((r) => r.status)).toEqual(Array(10).fill(200));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.body.error.message).toBe('too many requests of this organization in progress on this server; retry shortly');
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
    expect(answers.filter((r) => r.status !== 429).every((r) => r.status === 202)).toBe(true);
    expect((await limitedCount('organization')) - before).toBe(refused.length);
    // A refused request stored nothing: every stored message belongs to an accepted one.
    const { rows } = await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE org_id = $1`, [a.org.id]);
    expect(rows[0].n).toBe((answers.length - refused.length) * 500);
    // Its members see it on their overview (written within 5 s); the other organization's shows nothing.
    const [memberOfA, memberOfB] = await Promise.all([signedInMember(app, a.org.id, 'viewer'), signedInMember(app, b.org.id, 'viewer')]);
    await expect.poll(async () => (await app.request('GET', '/dashboard/v1/overview', { headers: memberOfA.headers })).body.limited).toEqual({ organization: refused.length });
    expect((await app.request('GET', '/dashboard/v1/overview', { headers: memberOfB.headers })).body.limited).toEqual({});
  }, 60_000);
});

describe('Bulkhead', () => {
  it('runs up to its limit, queues up to its line, refuses past it, and hands a freed slot to the first in line', async () => {
    const b = new Bulkhead(2, 1);
    const r1 = b.tryEnter('o')!;
    const r2 = b.tryEnter('o')!;
    expect(b.tryEnter('o')).toBeNull();
    expect(b.tryEnter('other')).not.toBeNull();
    let third = false;
    const waiting = b.enter('o').then((release) => {
      third = true;
      return release;
    });
    await expect(b.enter('o')).rejects.toMatchObject({ code: 'rate_limited' });
    r1();
    const r3 = await waiting;
    expect(third).toBe(true);
    expect(b.tryEnter('o')).toBeNull(); // the slot went to the one in line, not to a newcomer
    r2();
    r3();
    expect(b.tryEnter('o')).not.toBeNull();
  });
});

describe('Bulkhead with a fair share', () => {
  const settle = () => new Promise((r) => setImmediate(r));

  it('lets a tenant alone run up to its limit, and shares the pool between tenants running at once', async () => {
    let now = 0;
    const b = new Bulkhead(8, 100, undefined, 6, () => now);
    const heavy = Array.from({ length: 8 }, () => b.tryEnter('heavy'));
    expect(heavy.every((r) => r !== null)).toBe(true); // alone: its whole limit
    expect(b.tryEnter('heavy')).toBeNull();
    const light = b.tryEnter('light');
    expect(light).not.toBeNull(); // another tenant is never kept out by the first
    // Beside `light`, heavy's share is 6 / 2 = 3: it runs 8 and waits until it is back under 3.
    let started = 0;
    const waiting = Array.from({ length: 3 }, () =>
      b.enter('heavy').then((release) => {
        started++;
        return release;
      }),
    );
    for (let i = 0; i < 5; i++) heavy[i]!();
    await settle();
    expect(started).toBe(0);
    heavy[5]!(); // 2 run: one more may start
    await settle();
    expect(started).toBe(1);
    // `light` ends its request, and still counts for 250 ms: heavy stays at its share meanwhile.
    light!();
    heavy[6]!();
    await settle();
    expect(started).toBe(2);
    expect(b.tenants).toBe(2);
    now = 300; // alone again: its whole limit, the line runs at once
    expect(b.tenants).toBe(1);
    heavy[7]!();
    await settle();
    expect(started).toBe(3);
    for (const release of await Promise.all(waiting)) release();
    expect(b.tryEnter('heavy')).not.toBeNull();
  });

  it('keeps a tenant that sends one request at a time counted between its requests', async () => {
    let now = 0;
    const b = new Bulkhead(64, 1000, undefined, 20, () => now);
    const heavy: Array<() => void> = [];
    const take = () => {
      for (let r = b.tryEnter('heavy'); r; r = b.tryEnter('heavy')) heavy.push(r);
    };
    b.tryEnter('light')!(); // one request, answered
    now = 100; // the gap before its next request
    take();
    expect(heavy).toHaveLength(10); // its share beside the light tenant, not the 64 the gap would have left it
    now = 400; // the light tenant stopped: after 250 ms the heavy one has its whole limit again
    take();
    expect(heavy).toHaveLength(64);
  });
});
