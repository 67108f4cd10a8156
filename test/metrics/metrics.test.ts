import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { eventually, pairTestPhone, sendMessages, type TestPhone } from '../support/phones.js';
import type { Job } from '../../src/phone/protocol.js';
import pg from 'pg';
import { startMetricsListener } from '../../src/metrics/metrics-listener.js';
import { createEndpoint, deliveries, emitEvents, startWebhookRig, waitFor, type WebhookRig } from '../webhooks/support.js';
import { testDatabaseUrl } from '../support/database.js';
import { SCRAPE_READ_TIMEOUT_MS } from '../../src/infrastructure/within-timeout.js';
import { parsePrometheus, sampleValue } from '../support/prometheus.js';

const TOKEN = 'metrics-test-token-0123456789';

async function scrape(app: TestApp): Promise<Map<string, number>> {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await res.text());
}

describe('GET /metrics with HAFATRA_METRICS_TOKEN set', () => {
  let app: TestApp;
  let key: string;
  let orgId: string;
  beforeAll(async () => {
    app = await startTestApp({ metricsToken: TOKEN });
    ({
      org: { id: orgId },
      key,
    } = await app.createOrg({ dailyLimit: 100 }));
  });
  afterAll(() => app.close());

  it('counts accepted messages, the HTTP request by route and status, and reads the queue depth and pools at scrape time', async () => {
    await insertTestDevice(app.ctx, orgId, { sims: [1] });
    // The first scrape of this process: its registry is its own, so the counts are this test's alone
    // (and the queue depth is read now, not served from the 5 s cache).
    await sendMessages(app, key, 3);
    const after = await scrape(app);

    expect(sampleValue(after, 'hafatra_messages_accepted_total')).toBe(3);
    expect(sampleValue(after, 'hafatra_http_requests_total', { route: '/v1/messages', method: 'POST', status: '202' })).toBe(1);
    const timed = { route: '/v1/messages', method: 'POST' };
    expect(sampleValue(after, 'hafatra_http_request_duration_seconds_count', timed)).toBe(1);
    expect(sampleValue(after, 'hafatra_http_request_duration_seconds_bucket', { ...timed, le: '+Inf' })).toBe(sampleValue(after, 'hafatra_http_request_duration_seconds_count', timed));
    // The scrape itself is counted under its route pattern, and a path with an id only under its pattern.
    await app.request('GET', '/v1/messages/msg_0000000000000000000000000', { key });
    const later = await scrape(app);
    expect(sampleValue(later, 'hafatra_http_requests_total', { route: '/v1/messages/:messageId', method: 'GET', status: '404' })).toBe(1);
    expect([...later.keys()].some((k) => k.includes('msg_0000000000000000000000000'))).toBe(false);
    expect(sampleValue(later, 'hafatra_http_requests_total', { route: '/metrics', method: 'GET', status: '200' })).toBe(1);

    // No phone is connected: the three wait in Postgres (other test files may queue more).
    expect(sampleValue(after, 'hafatra_dispatch_queue_depth')).toBeGreaterThanOrEqual(3);
    expect(sampleValue(after, 'hafatra_metrics_source_up', { source: 'dispatch_queue_depth' })).toBe(1);
    // Per organization only for the deepest queues, so the series stay bounded.
    expect(sampleValue(after, 'hafatra_dispatch_queue_depth_top', { org: orgId })).toBe(3);
    expect([...after.keys()].filter((k) => k.startsWith('hafatra_dispatch_queue_depth_top{')).length).toBeLessThanOrEqual(10);
    expect(sampleValue(after, 'hafatra_pg_pool_connections', { pool: 'main' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, 'hafatra_pg_pool_connections', { pool: 'hot' })).toBeGreaterThanOrEqual(1);
    expect(after.has('hafatra_pg_pool_waiting{pool=main}')).toBe(true);
    // prom-client's process metrics, event-loop lag among them.
    expect(after.has('nodejs_eventloop_lag_seconds{}')).toBe(true);
    expect(after.has('process_resident_memory_bytes{}')).toBe(true);
  });

  it('counts status changes by their new status', async () => {
    const [id] = await sendMessages(app, key, 1);
    const before = await scrape(app);
    expect((await app.request('POST', `/v1/messages/${id}/cancel`, { key })).status).toBe(200);
    const after = await scrape(app);
    expect(sampleValue(after, 'hafatra_message_status_changes_total', { status: 'cancelled' }) - sampleValue(before, 'hafatra_message_status_changes_total', { status: 'cancelled' })).toBe(1);
  });

  it('counts a phone, its claims and its reports: claimed, sending and sent, with their batch sizes', async () => {
    const { org, key: phoneKey } = await app.createOrg({ dailyLimit: 100 });
    const reports: Promise<unknown>[] = [];
    let phone: TestPhone | undefined;
    phone = await pairTestPhone(app, org.id, {
      pacingPerMinute: 100_000,
      client: {
        onJobs: (jobs: Job[]) => {
          for (const job of jobs)
            reports.push(
              (async () => {
                await phone!.client.reportStatus({ messageId: job.messageId, status: 'sending' });
                await phone!.client.reportStatus({ messageId: job.messageId, status: 'sent' });
              })(),
            );
        },
      },
    });
    const before = await scrape(app);
    await phone.client.connect(10_000);
    try {
      // Waited for like its leaving below: under a busy machine one scrape taken at once read 0.
      await eventually(async () => sampleValue(await scrape(app), 'hafatra_phones_connected') === 1, 5_000, 'the phone in the gauge');
      const ids = await sendMessages(app, phoneKey, 2);
      await eventually(async () => (await app.ctx.db.query("SELECT 1 FROM messages WHERE id = ANY($1) AND status = 'sent'", [ids])).rowCount === 2, 10_000, 'both sent');
      await Promise.all(reports);
      const after = await scrape(app);
      const delta = (name: string, labels: Record<string, string> = {}) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
      expect(delta('hafatra_message_status_changes_total', { status: 'claimed' })).toBe(2);
      expect(delta('hafatra_message_status_changes_total', { status: 'sending' })).toBe(2);
      expect(delta('hafatra_message_status_changes_total', { status: 'sent' })).toBe(2);
      // Both messages went out in one or two claims; four reports in one to four batches.
      expect(delta('hafatra_claim_batch_size_sum')).toBe(2);
      expect(delta('hafatra_claim_batch_size_count')).toBeGreaterThanOrEqual(1);
      expect(delta('hafatra_report_batch_size_sum')).toBe(4);
    } finally {
      await phone.client.close();
    }
    await eventually(async () => sampleValue(await scrape(app), 'hafatra_phones_connected') === 0, 5_000, 'the phone gone from the gauge');
  });

  it('answers 401 without the token or with a wrong one, and nothing of the metrics', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: `Bearer ${TOKEN}x` }, { authorization: TOKEN }] as Record<string, string>[]) {
      const res = await fetch(`${app.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      const text = await res.text();
      expect(JSON.parse(text).error.code).toBe('unauthorized');
      expect(text).not.toContain('hafatra_');
    }
  });
});

describe('GET /metrics in a process running the webhook workers', () => {
  let rig: WebhookRig;
  beforeAll(async () => {
    rig = await startWebhookRig({ metricsToken: TOKEN, webhookTimeoutMs: 1000, webhookScheduleSeconds: [0, 3600] });
  });
  afterAll(() => rig.close());

  it('counts deliveries by outcome and reads the BullMQ backlog', async () => {
    const { app, receiver } = rig;
    const { org, key } = await app.createOrg();
    const { id } = await createEndpoint(app, key, { url: `${receiver.url}hooks`, eventTypes: ['message.sent'] });
    receiver.respondWith(() => ({ status: 200 }));
    await emitEvents(app, org.id, 'message.sent', 2);
    await waitFor('both delivered', async () => (await deliveries(app, key, id)).filter((d) => d.status === 'delivered').length === 2);
    receiver.respondWith(() => ({ status: 500 }));
    await emitEvents(app, org.id, 'message.sent', 1);
    await waitFor('one retrying', async () => (await deliveries(app, key, id)).some((d) => d.status === 'retrying'));
    const samples = await scrape(app);
    expect(sampleValue(samples, 'hafatra_webhook_deliveries_total', { outcome: 'delivered' })).toBe(2);
    expect(sampleValue(samples, 'hafatra_webhook_deliveries_total', { outcome: 'retrying' })).toBe(1);
    // The retry waits an hour: its job is delayed in BullMQ.
    expect(sampleValue(samples, 'hafatra_webhook_backlog', { state: 'delayed' })).toBeGreaterThanOrEqual(1);
    expect(samples.has('hafatra_webhook_backlog{state=waiting}')).toBe(true);
  });

  it('serves the same metrics on HAFATRA_METRICS_PORT, the listener `hafatra worker` starts, with the same token rule', async () => {
    const listener = await startMetricsListener(rig.app.ctx, '127.0.0.1', 0);
    try {
      const url = `http://127.0.0.1:${listener.port}`;
      const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      const samples = parsePrometheus(await res.text());
      expect(sampleValue(samples, 'hafatra_webhook_deliveries_total', { outcome: 'delivered' })).toBe(2);
      expect(samples.has('nodejs_eventloop_lag_seconds{}')).toBe(true);
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      expect((await fetch(`${url}/v1/messages`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      listener.close();
    }
  });
});

describe('GET /metrics while Postgres does not answer', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ metricsToken: TOKEN });
  });
  afterAll(() => app.close());

  it('still answers within the bound, with the queue depth source down and the rest intact', async () => {
    // The count waits on this lock (this file's own database): as a Postgres that stopped answering.
    const locker = new pg.Client({ connectionString: testDatabaseUrl() });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE messages IN ACCESS EXCLUSIVE MODE');
      const startedAt = performance.now();
      const samples = await scrape(app);
      const ms = performance.now() - startedAt;
      expect(ms).toBeGreaterThanOrEqual(SCRAPE_READ_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(SCRAPE_READ_TIMEOUT_MS + 1_500);
      expect(sampleValue(samples, 'hafatra_metrics_source_up', { source: 'dispatch_queue_depth' })).toBe(0);
      expect(samples.has('hafatra_pg_pool_connections{pool=main}')).toBe(true);
      expect(samples.has('nodejs_eventloop_lag_seconds{}')).toBe(true);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
  });
});

describe('GET /metrics without HAFATRA_METRICS_TOKEN', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ metricsToken: '' });
  });
  afterAll(() => app.close());

  it('answers 404 like an unknown route, token or not', async () => {
    for (const headers of [{}, { authorization: 'Bearer ' }, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const res = await fetch(`${app.url}/metrics`, { headers });
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(JSON.parse(text).error.code).toBe('not_found');
      expect(text).not.toContain('hafatra_');
    }
  });
});
