import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runWebhookListener, type WebhookListener } from '../../../src/cli/webhook-listen.js';
import { closeWebhookConnections } from '../../../src/webhooks/delivery/connection-pools.js';
import { webhookRequestHeaders } from '../../../src/webhooks/delivery/headers.js';
import { postWebhook } from '../../../src/webhooks/delivery/post-webhook.js';
import { newWebhookSecret, signWebhookPayload } from '../../../src/webhooks/delivery/signature.js';

const dataDir = mkdtempSync(join(tmpdir(), 'hafatra-listen-'));
const secret = newWebhookSecret();
let listener: WebhookListener | undefined;
let lines: string[] = [];

async function start(): Promise<WebhookListener> {
  lines = [];
  listener = await runWebhookListener({ port: 0, secret, dataDir, tls: true, out: (line) => lines.push(line) });
  return listener;
}

function deliver(to: WebhookListener, signingSecret: string, event = { id: 'evt_01', event: 'message.sent' }) {
  const body = JSON.stringify({ ...event, createdAt: new Date().toISOString(), data: { id: 'msg_1', status: 'sent' } });
  const signature = signWebhookPayload(body, [signingSecret], Math.floor(Date.now() / 1000));
  return postWebhook({
    url: new URL(to.url),
    address: '127.0.0.1',
    family: 4,
    body,
    headers: webhookRequestHeaders({ signature, eventId: event.id, eventType: event.event, version: '0.0.0-test' }),
    timeoutMs: 5_000,
    ca: to.certPath ? readFileSync(to.certPath, 'utf8') : undefined,
  });
}

afterEach(async () => {
  closeWebhookConnections();
  await listener?.close();
  listener = undefined;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('runWebhookListener, plain http (the default)', () => {
  it('listens on loopback without a certificate and verifies with the secret set once its endpoint exists', async () => {
    listener = await runWebhookListener({ port: 0, dataDir, out: (line) => lines.push(line) });
    expect(listener.url).toBe(`http://localhost:${listener.port}/`);
    expect(listener.certPath).toBeNull();
    expect(lines.join('\n')).not.toContain('NODE_EXTRA_CA_CERTS');
    // No secret yet: nothing is valid.
    expect(await deliver(listener, secret)).toMatchObject({ ok: false, statusCode: 401 });
    listener.setSecret(secret);
    lines = [];
    expect(await deliver(listener, secret, { id: 'evt_plain', event: 'message.sent' })).toMatchObject({ ok: true, statusCode: 200 });
    expect(lines[0]).toMatch(/message\.sent {2}evt_plain {2}valid$/);
  });
});

describe('runWebhookListener --https', () => {
  it('writes its certificate under the data dir and prints how to start Hafatra against it', async () => {
    const started = await start();
    expect(started.certPath).toBe(join(dataDir, 'webhook-listener', 'cert.pem'));
    expect(statSync(join(dataDir, 'webhook-listener', 'key.pem')).mode & 0o077).toBe(0);
    const banner = lines.join('\n');
    expect(banner).toContain(started.url);
    expect(banner).toContain(`NODE_EXTRA_CA_CERTS=${started.certPath}`);
    expect(banner).toContain('HAFATRA_WEBHOOK_ALLOW_HOSTS=localhost');
  });

  it('answers 200 to a correctly signed delivery and prints one line for it', async () => {
    const started = await start();
    lines = [];
    const result = await deliver(started, secret, { id: 'evt_ok', event: 'incoming.received' });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z {2}incoming\.received {2}evt_ok {2}valid$/);
  });

  it('answers 401 and prints INVALID for a delivery signed with another secret', async () => {
    const started = await start();
    lines = [];
    const result = await deliver(started, newWebhookSecret(), { id: 'evt_bad', event: 'message.failed' });
    expect(result).toMatchObject({ ok: false, statusCode: 401 });
    expect(lines[0]).toMatch(/message\.failed {2}evt_bad {2}INVALID signature$/);
  });

  it('keeps the same certificate across restarts, so NODE_EXTRA_CA_CERTS stays valid', async () => {
    const first = await start();
    const cert = readFileSync(first.certPath!, 'utf8');
    await first.close();
    const second = await start();
    expect(readFileSync(second.certPath!, 'utf8')).toBe(cert);
    expect((await deliver(second, secret)).ok).toBe(true);
  });

  it('is trusted by a Node process started with the printed NODE_EXTRA_CA_CERTS', async () => {
    const started = await start();
    const script = `require('https').request('${started.url}', { method: 'POST' }, (res) => { console.log(res.statusCode); res.resume(); })
      .on('error', (e) => { console.log(e.code); }).end('{}')`;
    const run = promisify(execFile);
    const trusted = await run(process.execPath, ['-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: started.certPath! } });
    expect(trusted.stdout.trim()).toBe('401'); // reached the listener; unsigned, so refused
    const { NODE_EXTRA_CA_CERTS: _ignored, ...envWithout } = process.env;
    const untrusted = await run(process.execPath, ['-e', script], { env: envWithout });
    expect(untrusted.stdout.trim()).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});
