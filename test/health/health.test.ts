import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { startTestApp, type TestApp } from '../support/harness.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { eventually } from '../support/phones.js';
import { timed } from '../support/outage.js';
import { insertTestDevice } from '../support/devices.js';
import { PROBE_CACHE_MS, PROBE_TIMEOUT_MS, readiness } from '../../src/health/readiness.js';
import type { AppContext } from '../../src/context/app-context.js';

/** What a balancer sees of /readyz: answered within a probe's bound plus slack, whatever the stores do. */
const READY_BOUND_MS = PROBE_TIMEOUT_MS + PROBE_CACHE_MS + 1_000;

describe('healthz and readyz', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('answer 200 without a key, and are not part of the /v1 OpenAPI document', async () => {
    const health = await app.request('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect(health.headers.get('cache-control')).toBe('no-store');
    const ready = await app.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
    const spec = await app.request('GET', '/openapi.json');
    expect(Object.keys(spec.body.paths)).not.toContain('/healthz');
    expect(Object.keys(spec.body.paths)).not.toContain('/readyz');
  });

  it('cost one Postgres query and one Redis PING per cache window, however many callers', async () => {
    let queries = 0;
    let pings = 0;
    const counted = readiness({
      db: {
        query: (sql: string) => {
          queries++;
          return app.ctx.db.query(sql);
        },
      } as unknown as AppContext['db'],
      redis: {
        ping: () => {
          pings++;
          return app.ctx.redis.ping();
        },
      } as unknown as AppContext['redis'],
    });
    const first = await Promise.all(Array.from({ length: 50 }, () => counted.check()));
    expect(first).toEqual(Array(50).fill([]));
    await counted.check();
    expect({ queries, pings }).toEqual({ queries: 1, pings: 1 });
    await new Promise((r) => setTimeout(r, PROBE_CACHE_MS + 50));
    await Promise.all([counted.check(), counted.check()]);
    expect({ queries, pings }).toEqual({ queries: 2, pings: 2 });
  });
});

describe('readyz while Redis is unreachable', () => {
  let redis: OwnRedis;
  let app: TestApp;
  beforeAll(async () => {
    redis = await startOwnRedis();
    app = await startTestApp({ redisUrl: redis.url });
  }, 60_000);
  afterAll(async () => {
    await redis?.thaw().catch(() => undefined);
    await app?.close();
    await redis?.destroy();
  });

  it('answers 503 naming redis while it is stopped, healthz still 200, and ready again once it is back', async () => {
    expect((await app.request('GET', '/readyz')).status).toBe(200);
    await redis.stop();
    const down = await eventually(
      async () => {
        const res = await timed(() => app.request('GET', '/readyz'));
        expect(res.ms).toBeLessThan(READY_BOUND_MS);
        return res.status === 503 && res;
      },
      10_000,
      'readyz 503',
    );
    expect(down.body).toEqual({ status: 'not_ready', reasons: ['redis'] });
    expect((await app.request('GET', '/healthz')).status).toBe(200);
    await redis.start();
    await eventually(async () => (await app.request('GET', '/readyz')).status === 200, 15_000, 'readyz 200 again');
  }, 60_000);

  it('answers 503 within its bound while Redis accepts connections but answers nothing', async () => {
    await eventually(async () => (await app.request('GET', '/readyz')).status === 200, 15_000, 'readyz 200');
    await redis.freeze();
    try {
      // The cached ready answer lasts PROBE_CACHE_MS; the next probe gives up after PROBE_TIMEOUT_MS.
      await new Promise((r) => setTimeout(r, PROBE_CACHE_MS));
      const res = await timed(() => app.request('GET', '/readyz'));
      expect(res.status).toBe(503);
      expect(res.body.reasons).toEqual(['redis']);
      expect(res.ms).toBeLessThan(READY_BOUND_MS);
      const health = await timed(() => app.request('GET', '/healthz'));
      expect(health.status).toBe(200);
      expect(health.ms).toBeLessThan(500);
    } finally {
      await redis.thaw();
    }
    await eventually(async () => (await app.request('GET', '/readyz')).status === 200, 15_000, 'readyz 200 again');
  }, 60_000);
});

/** A fresh TCP connection is refused: the listener is closed. */
const refused = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('a drain (SIGTERM)', () => {
  it('turns not ready at once, keeps serving, and answers a request in flight after the listener closed', async () => {
    const app = await startTestApp({ drainSeconds: 1 });
    const { org, key } = await app.createOrg();
    const deviceId = await insertTestDevice(app.ctx, org.id);
    const body = Buffer.from(JSON.stringify({ to: '+261340000002', body: 'Salama', deviceId }));
    // A send whose body is half written when the drain starts: in flight across all of it.
    let finishSend = () => undefined as unknown;
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${app.url}/v1/messages`, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(body.length) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(body.subarray(0, 10));
      finishSend = () => req.end(body.subarray(10));
    });
    // The half request's headers are on the wire before the drain starts (they would be served
    // anyway: the listener stays open for the drain's second).
    expect((await app.request('GET', '/healthz')).status).toBe(200);

    const closing = app.close();
    const ready = await app.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'not_ready', reasons: ['draining'] });
    // Still serving during the drain: a balancer that has not yet noticed loses nothing.
    expect((await app.request('GET', '/v1/messages?limit=1', { key })).status).toBe(200);

    await eventually(() => refused(app.url), 10_000, 'the listener closed');
    finishSend();
    const answered = await inFlight;
    // 202: durable in Postgres, though the process was stopping.
    expect(answered.status).toBe(202);
    await closing;
  }, 30_000);
});
