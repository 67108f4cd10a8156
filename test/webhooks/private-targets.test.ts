import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember } from '../support/members.js';
import { cliRunner } from '../support/cli.js';
import { testDatabaseUrl } from '../support/database.js';
import { expectError } from '../api/expect-error.js';
import { startWebhookWorkers, type WebhookWorkers } from '../../src/webhooks/workers.js';
import { runWebhookListener, type WebhookListener } from '../../src/cli/webhook-listen.js';
import { ensureListenEndpoint, ListenEndpointError } from '../../src/cli/webhook-listen-endpoint.js';
import { closeWebhookConnections } from '../../src/webhooks/delivery/connection-pools.js';
import { deliveries, waitFor } from './support.js';
import { pickFreePort } from '../../src/launcher/free-port.js';

// No HAFATRA_WEBHOOK_ALLOW_HOSTS: only the organization's own setting opens loopback.
let app: TestApp;
let workers: WebhookWorkers;
let listener: WebhookListener;
const lines: string[] = [];

beforeAll(async () => {
  app = await startTestApp({ webhookAllowHosts: [], webhookScheduleSeconds: [0, 1, 1], reconcileIntervalMs: 200 });
  workers = await startWebhookWorkers(app.ctx);
  listener = await runWebhookListener({ port: 0, out: (line) => lines.push(line) });
});
afterAll(async () => {
  await listener.close();
  closeWebhookConnections();
  await workers.close();
  await app.close();
});

const patch = (headers: Record<string, string>, body: unknown) => app.request('PATCH', '/dashboard/v1/organization', { headers, body });
const listenTo = (apiKey: string) => ensureListenEndpoint({ apiUrl: app.url, apiKey, listenUrl: listener.url, eventTypes: [] });

async function testEvent(key: string, endpointId: string): Promise<string> {
  const res = await app.request('POST', `/v1/webhooks/${endpointId}/test`, { key });
  expect(res.status).toBe(202);
  return res.body.eventId;
}

it('webhook listen: refused by default, then made, verified and delivered over plain http once an owner allows loopback at run time', async () => {
  const { org, key } = await app.createOrg();
  const owner = await signedInMember(app, org.id, 'owner');
  const refused = await listenTo(key).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(ListenEndpointError);
  expect((refused as Error).message).toMatch(/invalid_request: url: .*not a public address \(loopback\)/);

  const set = await patch(owner.headers, { webhookPrivateTargets: ['LocalHost'] });
  expect(set.status).toBe(200);
  expect(set.body).toMatchObject({ webhookPrivateTargets: ['localhost'], webhookPlainHttp: false });

  const made = await listenTo(key);
  expect(made).toMatchObject({ id: expect.stringMatching(/^whe_/), secret: expect.stringMatching(/^whsec_/), created: true });
  listener.setSecret(made.secret);
  const eventId = await testEvent(key, made.id);
  await waitFor('the delivery printed as valid', () => lines.some((l) => l.includes(eventId) && l.endsWith('valid')));
  await waitFor('the delivery recorded', async () => (await deliveries(app, key, made.id)).some((d) => d.status === 'delivered'));

  // Run again: the same endpoint, a fresh secret, still verified.
  const again = await listenTo(key);
  expect(again).toMatchObject({ id: made.id, created: false });
  expect(again.secret).not.toBe(made.secret);
  listener.setSecret(again.secret);
  const second = await testEvent(key, made.id);
  await waitFor('the second delivery printed as valid', () => lines.some((l) => l.includes(second) && l.endsWith('  valid')));
});

it('taking the target back stops the next delivery at once (checked at delivery), and nothing reaches the listener', async () => {
  const { org, key } = await app.createOrg();
  const owner = await signedInMember(app, org.id, 'owner');
  await patch(owner.headers, { webhookPrivateTargets: ['localhost'] });
  const made = await listenTo(key);
  expect((await patch(owner.headers, { webhookPrivateTargets: [] })).body.webhookPrivateTargets).toEqual([]);
  const eventId = await testEvent(key, made.id);
  const failed = await waitFor('the attempt refused', async () => (await deliveries(app, key, made.id)).find((d) => d.lastError !== null));
  expect(failed.lastError).toMatch(/not a public address \(loopback\)/);
  expect(failed.lastStatusCode).toBeNull();
  expect(lines.some((l) => l.includes(eventId))).toBe(false);
});

it('only owners change it; bad entries are refused naming the field and change nothing', async () => {
  const { org } = await app.createOrg();
  const owner = await signedInMember(app, org.id, 'owner');
  const admin = await signedInMember(app, org.id, 'admin');
  expect((await patch(admin.headers, { webhookPrivateTargets: ['localhost'] })).status).toBe(403);
  expectError(await patch(owner.headers, { webhookPrivateTargets: ['http://localhost:4000'] }), 400, 'invalid_request', /^webhookPrivateTargets: http:\/\/localhost:4000 is not a host name/);
  expectError(await patch(owner.headers, { webhookPrivateTargets: ['10.0.0.0/40'] }), 400, 'invalid_request', /^webhookPrivateTargets: 10\.0\.0\.0\/40 is not a valid CIDR range/);
  expectError(await patch(owner.headers, { webhookPlainHttp: 'yes' }), 400, 'invalid_request', /webhookPlainHttp/);
  const shown = await app.request('GET', '/dashboard/v1/organization', { headers: admin.headers });
  expect(shown.body).toMatchObject({ webhookPrivateTargets: [], webhookPlainHttp: false });
});

it('hafatra org update sets both, and plain http to a LAN target follows the plain-HTTP choice', async () => {
  const { org, key } = await app.createOrg();
  const { json, hafatra } = cliRunner({ DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: app.ctx.config.redisPrefix, LOG_LEVEL: 'silent' });
  const bad = await hafatra('org', 'update', org.id, '--webhook-private-targets', 'localhost,not a host');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--webhook-private-targets: not a host is not a host name');
  const create = (url: string) => app.request('POST', '/v1/webhooks', { key, body: { url, eventTypes: ['message.sent'] } });
  expectError(await create('http://192.168.77.5:8080/hook'), 400, 'invalid_request', /not a public address \(private\)/);

  const updated = await json('org', 'update', org.id, '--webhook-private-targets', '192.168.77.0/24,localhost');
  expect(updated).toMatchObject({ webhookPrivateTargets: ['192.168.77.0/24', 'localhost'], webhookPlainHttp: false });
  expectError(await create('http://192.168.77.5:8080/hook'), 400, 'invalid_request', /must use https; plain http only reaches/);
  expect((await create('https://192.168.77.5:8443/hook')).status).toBe(201);
  expect((await json('org', 'update', org.id, '--webhook-plain-http', 'yes')).webhookPlainHttp).toBe(true);
  expect((await create('http://192.168.77.5:8080/hook')).status).toBe(201);
  expect((await json('org', 'update', org.id, '--webhook-private-targets', 'none')).webhookPrivateTargets).toEqual([]);
  expectError(await create('https://192.168.77.5:8443/hook'), 400, 'invalid_request', /not a public address/);
});

it('hafatra webhook listen, refused, says how an owner allows it and exits 1; without a key or a secret it exits 2', async () => {
  const { key } = await app.createOrg();
  const { hafatra } = cliRunner({ LOG_LEVEL: 'silent' });
  const port = String(await pickFreePort());
  const refused = await hafatra('webhook', 'listen', '--key', key, '--url', app.url, '--port', port);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/error: POST \/v1\/webhooks: invalid_request: url: .*not a public address \(loopback\)/);
  expect(refused.stderr).toContain('hafatra org update ORG --webhook-private-targets localhost');
  const none = await hafatra('webhook', 'listen', '--port', port);
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('give an API key with the scopes webhooks:read and webhooks:write (--key or HAFATRA_API_KEY), or --secret');
  const down = await hafatra('webhook', 'listen', '--key', key, '--url', 'http://127.0.0.1:9', '--port', port);
  expect(down.code).toBe(1);
  expect(down.stderr).toContain('cannot reach Hafatra at http://127.0.0.1:9');
});
