import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { request, type RequestOptions } from 'node:https';
import { isIPv4 } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../support/harness.js';
import { lanNames } from '../../src/tls/lan-names.js';
import { loadConfig } from '../../src/config/config.js';
import { loadOrCreateLocalCa } from '../../src/tls/local-ca.js';
import { signedInMember } from '../support/members.js';
import { secureCookies } from '../../src/members/base-url.js';
import { createPairingCode } from '../../src/devices/pairing.js';
import { webhookSignature } from '../../src/mobile-api/webhook-signature.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, opts: RequestOptions, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ...opts, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

const pem = (der: Buffer) => new X509Certificate(der).toString();

// The address a phone on the LAN would type; a machine without one still checks loopback.
const lanAddress = lanNames().find((n) => isIPv4(n) && n !== '127.0.0.1') ?? '127.0.0.1';

let dataDir: string;
let app: TestApp;
let base: string;
let caPem: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hafatra-tls-'));
  app = await startTestApp({ https: true, host: '0.0.0.0', dataDir });
  base = `https://${lanAddress}:${new URL(app.url).port}`;
  caPem = pem((await loadOrCreateLocalCa(dataDir)).certificate);
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('HAFATRA_HTTPS (the LAN certificate of a local CA)', () => {
  it('lets a client that trusts only the local CA reach the API on a LAN address, over TLS 1.2 as old Androids speak', async () => {
    const ready = await get(`${base}/healthz`, { ca: caPem });
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body.toString()).status).toBe('ok');
    const mobile = await get(`${base}/mobile/v1/webhooks`, { ca: caPem, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2', headers: { authorization: 'Bearer hfd_nope' } });
    expect(mobile.status).toBe(401);
    expect(mobile.headers['content-type']).toMatch(/^application\/json/);
    const api = await get(`${base}/v1/messages`, { ca: caPem, headers: { authorization: 'Bearer nope' } });
    expect(api.status).toBe(401);
  });

  it('carries a phone of SMS Gateway for Android from registration to a received SMS, each call trusting only the CA, at https URLs it is given', async () => {
    const { org, key } = await app.createOrg();
    const appHeaders = { 'user-agent': 'me.capcom.smsgateway/1.68.0', accept: 'application/json', 'content-type': 'application/json' };
    const { code } = await createPairingCode(app.ctx, org.id);
    const registered = await get(
      `${base}/mobile/v1/device`,
      { ca: caPem, method: 'POST', headers: { ...appHeaders, authorization: `Bearer ${code}` } },
      JSON.stringify({ name: 'Google/oriole', simCards: [] }),
    );
    expect(registered.status).toBe(201);
    const { id, token } = JSON.parse(registered.body.toString());
    const auth = { ...appHeaders, authorization: `Bearer ${token}` };
    // Its event stream, over TLS too, asks it first to sync its webhooks and settings.
    const frames = await new Promise<string>((resolve, reject) => {
      const req = request(`${base}/mobile/v1/events`, { ca: caPem, agent: false, headers: auth }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          if (text.includes('event: SettingsUpdated')) {
            req.destroy();
            resolve(text);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(frames).toContain('event: WebhooksUpdated');
    const hooks = JSON.parse((await get(`${base}/mobile/v1/webhooks`, { ca: caPem, headers: auth })).body.toString()) as { event: string; url: string }[];
    const url = hooks.find((h) => h.event === 'sms:received')!.url;
    expect(url).toBe(`${base}/mobile/v1/webhooks/events`);
    const signingKey = JSON.parse((await get(`${base}/mobile/v1/settings`, { ca: caPem, headers: auth })).body.toString()).webhooks.signing_key;
    const body = JSON.stringify({ id: 'evt-https-1', event: 'sms:received', deviceId: id, payload: { message: 'Salama', receivedAt: '2026-07-14T10:02:11.000+03:00', sender: '+261341112233' } });
    const ts = String(Math.floor(Date.now() / 1000));
    const fired = await get(url, { ca: caPem, method: 'POST', headers: { ...appHeaders, 'x-timestamp': ts, 'x-signature': webhookSignature(signingKey, Buffer.from(body), ts) } }, body);
    expect(fired.status).toBe(204);
    const inbox = JSON.parse((await get(`${base}/v1/incoming?deviceId=${id}`, { ca: caPem, headers: { authorization: `Bearer ${key}` } })).body.toString());
    expect(inbox.messages.map((m: { body: string }) => m.body)).toEqual(['Salama']);
  });

  it('is refused by a client that does not trust the local CA (the system roots, or another CA)', async () => {
    await expect(get(`${base}/healthz`, {})).rejects.toThrow(/certificate/i);
    const otherDir = await mkdtemp(join(tmpdir(), 'hafatra-tls-other-'));
    try {
      const other = pem((await loadOrCreateLocalCa(otherDir)).certificate);
      await expect(get(`${base}/healthz`, { ca: other })).rejects.toThrow(/certificate/i);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('serves no plain HTTP on the port', async () => {
    await expect(fetch(`http://127.0.0.1:${new URL(base).port}/healthz`, { signal: AbortSignal.timeout(5000) })).rejects.toThrow();
  });

  it('offers the CA certificate for download, in the form Android installs, and keeps its key private', async () => {
    const res = await get(`${base}/hafatra-ca.crt`, { ca: caPem });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-x509-ca-cert');
    const cert = new X509Certificate(res.body);
    expect(cert.ca).toBe(true);
    expect(cert.toString()).toBe(caPem);
    expect((await stat(join(dataDir, 'tls', 'local-ca.pem'))).mode & 0o077).toBe(0);
  });

  it('keeps the same CA across restarts and issues a certificate naming the LAN addresses and host name', async () => {
    const again = await startTestApp({ https: true, host: '0.0.0.0', dataDir });
    try {
      const port = new URL(again.url).port;
      expect((await get(`https://${lanAddress}:${port}/healthz`, { ca: caPem })).status).toBe(200);
      const file = await readFile(join(dataDir, 'tls', 'lan-server.pem'), 'utf8');
      const leaf = new X509Certificate(file.slice(file.indexOf('-----BEGIN CERTIFICATE-----')));
      expect(leaf.checkIssued(new X509Certificate(caPem))).toBe(true);
      expect(leaf.subjectAltName).toContain(`IP Address:${lanAddress}`);
      expect(leaf.subjectAltName).toContain('DNS:localhost');
    } finally {
      await again.close();
    }
  });

  it("has the pairing dialog offer the CA and the app's API URL at an address phones reach, even for a page opened as localhost", async () => {
    const { org } = await app.createOrg();
    const port = new URL(base).port;
    const admin = await signedInMember(app, org.id, 'admin');
    const res = await get(
      `https://localhost:${port}/dashboard/v1/pairings`,
      { ca: caPem, method: 'POST', headers: { cookie: admin.cookie, origin: `https://localhost:${port}`, 'content-type': 'application/json' } },
      '{}',
    );
    expect(res.status).toBe(201);
    const body = JSON.parse(res.body.toString());
    const server = lanAddress === '127.0.0.1' ? `https://localhost:${port}` : base;
    expect(body).toMatchObject({ server, mobileApiUrl: `${server}/mobile/v1`, ca: { url: `${server}/hafatra-ca.crt`, sha256: new X509Certificate(caPem).fingerprint256 } });
  });

  it('marks the dashboard session cookie Secure', () => {
    expect(secureCookies(app.ctx.config)).toBe(true);
    expect(secureCookies(loadConfig({}))).toBe(false);
  });

  it('is refused with the compatibility listener, which relays over plain HTTP', () => {
    expect(() => loadConfig({ HAFATRA_HTTPS: 'true', HAFATRA_COMPAT_PORT: '3001' })).toThrow(/HAFATRA_HTTPS/);
    expect(() => loadConfig({ HAFATRA_HTTPS: 'yes' })).toThrow(/https/);
  });
});
