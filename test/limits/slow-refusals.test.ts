import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { SlowRefusals } from '../../src/limits/slow-refusals.js';
import { pairTestPhone } from '../support/phones.js';

/**
 * Clients that ignore Retry-After (docs/operations.md): past a grace of refusals, a client's
 * further refusals are answered late, and past the held maximum its connections are closed.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ trustProxy: true, anonymousRatePerSecond: 1, anonymousBurst: 2, refusalGrace: 3, refusalDelayMs: 2000, refusalsHeldMax: 5 });
});
afterAll(() => app.close());

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const paced = async (pace: string) => (await app.ctx.metrics.pacedRefusals.get()).values.find((v) => v.labels.pace === pace)?.value ?? 0;
const timedRequest = async (address: string) => {
  const started = performance.now();
  const r = await app.request('GET', '/openapi.json', from(address)).catch(() => ({ status: 0 }));
  return { status: r.status, ms: performance.now() - started };
};

describe('refusals of a client that keeps asking', () => {
  it('answers the grace at once, then holds each further refusal, and never another address', async () => {
    const address = '198.51.100.1';
    const allowed = [await timedRequest(address), await timedRequest(address)];
    expect(allowed.map((a) => a.status)).toEqual([200, 200]);
    const heldBefore = await paced('held');
    const grace = [await timedRequest(address), await timedRequest(address), await timedRequest(address)];
    expect(grace.map((a) => a.status)).toEqual([429, 429, 429]);
    expect(await paced('held')).toBe(heldBefore); // answered at once
    const held = await timedRequest(address);
    expect(held.status).toBe(429);
    // Held for its Retry-After (1 s), which is shorter than the delay.
    expect(held.ms).toBeGreaterThanOrEqual(990);
    expect((await paced('held')) - heldBefore).toBe(1);
    // Another address is neither limited nor held for it.
    expect((await timedRequest('198.51.100.2')).status).toBe(200);
    expect((await paced('held')) - heldBefore).toBe(1);
  });

  it('closes the connections of refusals past the held maximum, unanswered, and answers the others', async () => {
    const address = '198.51.100.3';
    for (let i = 0; i < 5; i++) await timedRequest(address); // 2 allowed, 3 refused at once: the grace is spent
    const closedBefore = await paced('closed');
    const answers = await Promise.all(Array.from({ length: 12 }, () => timedRequest(address)));
    const statuses = answers.map((a) => a.status);
    // 5 held at most; the others closed (a token or a refusal of grace refilled meanwhile on a slow machine answers one more at once).
    const closed = statuses.filter((s) => s === 0).length;
    expect(closed).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((s) => s !== 0 && s !== 429 && s !== 200)).toEqual([]);
    expect((await paced('closed')) - closedBefore).toBe(closed);
    // Once the held ones are answered, the server serves everyone as before.
    expect((await timedRequest('198.51.100.4')).status).toBe(200);
  });
});

describe('refusals of an organization that keeps sending past its daily limit', () => {
  it('are held once its grace is spent, whichever key or address it uses, and another organization is answered at once', async () => {
    const [a, b] = await Promise.all([app.createOrg({ dailyLimit: 1 }), app.createOrg({ dailyLimit: 1 })]);
    await Promise.all([pairTestPhone(app, a.org.id), pairTestPhone(app, b.org.id)]);
    const send = (key: string, i: number) => app.request('POST', '/v1/messages', { key, body: { to: [`+2613420${String(i).padStart(5, '0')}`], body: 'over' }, ...from(`198.51.100.${10 + i}`) });
    expect((await send(a.key, 0)).status).toBe(202);
    const heldBefore = await paced('held');
    for (let i = 1; i <= 3; i++) expect((await send(a.key, i)).status).toBe(429);
    expect(await paced('held')).toBe(heldBefore); // the grace: answered at once
    const started = performance.now();
    const held = await send(a.key, 4);
    expect(held.status).toBe(429);
    // Held the whole delay, or until its Retry-After (the next UTC day) if that comes first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(Math.min(2000, Number(held.headers.get('retry-after')) * 1000 - 1000) - 50);
    expect((await paced('held')) - heldBefore).toBe(1);
    // Another organization past its own limit is within its own grace.
    expect((await send(b.key, 5)).status).toBe(202);
    expect((await send(b.key, 6)).status).toBe(429);
    expect((await paced('held')) - heldBefore).toBe(1);
  });
});

describe('SlowRefusals', () => {
  it('refills the grace over 10 s, never holds past Retry-After, and is off with a delay of 0', async () => {
    let now = 0;
    const s = new SlowRefusals({ graceRefusals: 2, delayMs: 1000, maxHeld: 10 }, () => now);
    expect([s.pace('a', 5000), s.pace('a', 5000)]).toEqual([{ kind: 'now' }, { kind: 'now' }]);
    expect(s.pace('a', 5000)).toEqual({ kind: 'hold', ms: 1000 });
    expect(s.pace('a', 250)).toEqual({ kind: 'hold', ms: 250 });
    expect(s.pace('b', 5000)).toEqual({ kind: 'now' });
    now = 5000; // one refusal's worth of grace back
    expect(s.pace('a', 5000)).toEqual({ kind: 'now' });
    const off = new SlowRefusals({ graceRefusals: 1, delayMs: 0, maxHeld: 10 });
    expect([off.pace('a', 1000), off.pace('a', 1000), off.pace('a', 1000)]).toEqual([{ kind: 'now' }, { kind: 'now' }, { kind: 'now' }]);
  });

  it('counts what it holds, and closes past its maximum', async () => {
    const s = new SlowRefusals({ graceRefusals: 1, delayMs: 1000, maxHeld: 1 });
    s.pace('a', 1000);
    const first = s.pace('a', 1000);
    expect(first).toEqual({ kind: 'hold', ms: 1000 });
    const holding = s.hold(20);
    expect(s.held).toBe(1);
    expect(s.pace('a', 1000)).toEqual({ kind: 'close' });
    await holding;
    expect(s.held).toBe(0);
    expect(s.pace('a', 1000)).toEqual({ kind: 'hold', ms: 1000 });
  });
});
