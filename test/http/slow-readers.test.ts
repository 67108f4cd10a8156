import { afterAll, beforeAll, expect, it } from 'vitest';
import net from 'node:net';
import { startTestApp, type TestApp } from '../support/harness.js';
import { HELD_BYTES_LIMIT, heldReplies } from '../../src/http/reply.js';
import { redisReady } from '../api/redis-ready.js';
import { rawGet } from '../support/raw-http-client.js';

// Issue 17 finding 3 at test scale: connections that keep asking for /openapi.json (54 kB) and
// never read. The kernel takes about a megabyte per connection on loopback; past that the old
// code buffered every further answer in uWS (the process grew by ~600 MB in a minute with 200 such
// clients) and the other clients' requests timed out. Now each is cut once its answer stalls.
const NON_READERS = 120;
const INTERVAL_MS = 200;

let app: TestApp;
beforeAll(async () => {
  // Every client here is anonymous from 127.0.0.1: the limit before authentication would answer
  // them a small 429 and no answer would stall. Lifted, so the stalled answers are what is tested.
  app = await startTestApp({ anonymousRatePerSecond: 1_000_000, anonymousBurst: 1_000_000 });
  await redisReady(app);
});
afterAll(() => app.close());

function nonReader(port: number, stop: { now: boolean }): Promise<'cut' | 'stopped'> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.pause();
    let timer: NodeJS.Timeout | undefined;
    const end = (how: 'cut' | 'stopped') => {
      clearTimeout(timer);
      s.destroy();
      resolve(how);
    };
    // A paused socket learns of the server's close when its next write fails.
    s.on('error', () => end('cut'));
    s.on('close', () => end('cut'));
    const tick = () => {
      if (stop.now) return end('stopped');
      s.write(rawGet('/openapi.json'));
      timer = setTimeout(tick, INTERVAL_MS);
    };
    s.once('connect', () => (timer = setTimeout(tick, Math.random() * INTERVAL_MS)));
  });
}

it('clients that never read are cut off, memory stays bounded and other clients are served', async () => {
  const port = Number(new URL(app.url).port);
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  let heldPeak = 0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    heldPeak = Math.max(heldPeak, heldReplies.bytes);
  }, 100);
  const stop = { now: false };
  const readers = Array.from({ length: NON_READERS }, () => nonReader(port, stop));
  const all = Promise.all(readers);

  // An ordinary client asks all along, and must be answered each time.
  const latencies: number[] = [];
  let finished = false;
  void all.then(() => (finished = true));
  const deadline = Date.now() + 100_000; // on a busy 2-core machine; about 15 s when alone
  while (!finished && Date.now() < deadline) {
    const t0 = performance.now();
    const res = await fetch(`${app.url}/openapi.json`, { signal: AbortSignal.timeout(20_000) });
    expect(res.status).toBe(200);
    expect((await res.json()).openapi).toBe('3.1.0');
    latencies.push(performance.now() - t0);
  }
  stop.now = true;
  const outcomes = await all;
  clearInterval(sampler);

  expect(outcomes.filter((o) => o === 'cut').length).toBe(NON_READERS);
  expect(latencies.length).toBeGreaterThan(0);
  expect(heldPeak).toBeLessThanOrEqual(HELD_BYTES_LIMIT);
  // What the process held for them: one stalled answer each at most, not a growing buffer.
  expect(rssPeak - rssBefore).toBeLessThan(250 * 1024 * 1024);
  expect(heldReplies).toEqual({ responses: 0, bytes: 0 });
  console.log(
    `non-readers cut: ${NON_READERS}; ordinary client: ${latencies.length} answers, max ${Math.max(...latencies).toFixed(0)} ms; rss +${((rssPeak - rssBefore) / 1e6).toFixed(0)} MB; held peak ${(heldPeak / 1e6).toFixed(1)} MB`,
  );
}, 180_000);
