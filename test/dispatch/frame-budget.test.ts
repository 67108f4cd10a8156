import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPhoneTestApp, pairTestPhone, sendMessages, type PhoneTestApp } from '../support/phones.js';
import { RawPhoneSocket, upgradeRefusal, type Frame } from '../support/raw-socket.js';

/**
 * One phone's frames go through a budget of its own (docs/device-protocol.md, "Frame budget"):
 * a flood is answered rate_limited without touching Postgres, then disconnected, and the other
 * organizations on the server do not notice.
 */
let app: PhoneTestApp;
let small: PhoneTestApp;
const sockets: RawPhoneSocket[] = [];
beforeAll(async () => {
  [app, small] = await Promise.all([startPhoneTestApp(), startPhoneTestApp({ phoneFramesPerSecond: 5, phoneFrameBurst: 5 })]);
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await Promise.all([app.close(), small.close()]);
});

async function phone(on: PhoneTestApp) {
  const { org, key } = await on.createOrg({ dailyLimit: 100_000 });
  const p = await pairTestPhone(on, org.id, { pacingPerMinute: 100_000 });
  const socket = await RawPhoneSocket.open(on.url, p.token);
  sockets.push(socket);
  return { ...p, key, socket };
}

const heartbeat = (ref: string) => ({ type: 'heartbeat', ref, defaultSmsApp: true, battery: { percent: 50, charging: false } });
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

/** Another organization's sends and reads, one every 50 ms while `during` runs: their latencies and statuses. */
async function neighbour(during: Promise<unknown>) {
  const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
  await pairTestPhone(app, org.id);
  const seen: { status: number; ms: number }[] = [];
  let done = false;
  void during.finally(() => {
    done = true;
  });
  while (!done || seen.length < 20) {
    const t = performance.now();
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'neighbour' } });
    seen.push({ status: sent.status, ms: performance.now() - t });
    const t2 = performance.now();
    const read = await app.request('GET', '/v1/messages?limit=10', { key });
    seen.push({ status: read.status, ms: performance.now() - t2 });
    await new Promise((r) => setTimeout(r, 50));
  }
  return seen;
}

describe('the frame budget', () => {
  it('answers a 20,000-heartbeat flood rate_limited, closes the socket with 4029, and another organization keeps its answers', async () => {
    const quiet = await neighbour(Promise.resolve());
    const { socket, token } = await phone(app);
    const flood = (async () => {
      for (let i = 0; i < 20_000; i++) socket.send(heartbeat(`f${i}`));
      return socket.closed;
    })();
    const busy = await neighbour(flood);
    const closed = await flood;
    expect(closed.code).toBe(4029);
    // Reconnecting at once is refused for a while: each new socket would cost Postgres writes.
    const again = await upgradeRefusal(app.url, token);
    expect(again.status).toBe(429);
    expect(JSON.parse(again.body).error.message).toContain('disconnected for flooding');
    const limited = socket.frames.filter((f) => f.code === 'rate_limited');
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.every((f) => typeof f.retryAfterMs === 'number' && (f.retryAfterMs as number) > 0)).toBe(true);
    // Heartbeats coalesce: of the frames let through, only a handful ran (each run has its own serverTime).
    const acks = socket.frames.filter((f) => f.type === 'ack');
    expect(new Set(acks.map((f) => f.serverTime)).size).toBeLessThan(50);
    expect(socket.frames.some((f) => f.code === 'internal_error')).toBe(false);
    // The neighbour: every send and read answered, none slowed past what a pool time-out would show.
    expect(busy.filter((s) => s.status >= 300)).toEqual([]);
    expect(p99(busy.map((s) => s.ms))).toBeLessThan(Math.max(2 * p99(quiet.map((s) => s.ms)), 500));
  }, 120_000);

  it('lets a phone within its budget through, and answers past it with the wait, a resend then succeeding', async () => {
    const { socket, key } = await phone(small);
    const [id] = await sendMessages(small, key, 1);
    await socket.until(() => socket.pushedJobs().length === 1, 10_000, 'the pushed job');
    const frames = Array.from({ length: 8 }, (_, i): Frame => ({ type: 'claim', ref: `c${i}`, max: 1 }));
    for (const f of frames) socket.send(f);
    await socket.until(() => frames.every((f) => socket.answers(f.ref as string).length === 1), 10_000, 'eight answers');
    const answers = frames.map((f) => socket.answers(f.ref as string)[0]!);
    expect(answers.filter((a) => a.type === 'ack')).toHaveLength(5);
    const refused = answers.filter((a) => a.code === 'rate_limited');
    expect(refused).toHaveLength(3);
    const wait = refused[0]!.retryAfterMs as number;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(200);
    await new Promise((r) => setTimeout(r, wait));
    expect(await socket.request({ type: 'status', ref: 's1', messageId: id, status: 'sending' })).toMatchObject({ type: 'ack', status: 'sending' });
    expect(socket.closeCode).toBeNull();
  });

  it('coalesces heartbeats sent back to back: every ref answered, the newest state written', async () => {
    const { socket, deviceId } = await phone(app);
    for (let i = 0; i < 10; i++) socket.send({ ...heartbeat(`h${i}`), battery: { percent: 10 + i, charging: false } });
    await socket.until(() => Array.from({ length: 10 }, (_, i) => socket.answers(`h${i}`).length).every((n) => n === 1), 10_000, 'ten answers');
    const acks = Array.from({ length: 10 }, (_, i) => socket.answers(`h${i}`)[0]!);
    expect(acks.every((a) => a.type === 'ack')).toBe(true);
    expect(new Set(acks.map((a) => a.serverTime)).size).toBeLessThanOrEqual(3);
    const { rows } = await app.ctx.db.query(`SELECT battery_percent AS percent FROM devices WHERE id = $1`, [deviceId]);
    expect(rows[0]).toEqual({ percent: 19 });
  });
});
