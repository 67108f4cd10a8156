// `hafatra webhook listen`: a local receiver for developing against Hafatra
// webhooks. It verifies each delivery's signature and prints one line per event.
// Plain HTTP on loopback by default (an organization that allowed the loopback
// target delivers there without TLS); with `tls`, HTTPS with a self-signed
// certificate kept under the data directory, so the NODE_EXTRA_CA_CERTS path it
// prints stays valid across restarts.
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { readSettings, settings } from '../config/config.js';
import { createDevCertificate, type DevCertificate } from '../webhooks/delivery/dev-certificate.js';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER } from '../webhooks/delivery/headers.js';
import { verifyWebhookSignature } from '../webhooks/delivery/signature.js';

export interface WebhookListenerOptions {
  port: number;
  /** Known later when the listener registers its own endpoint (setSecret). */
  secret?: string;
  /** HTTPS with the self-signed certificate (for a server that only has HAFATRA_WEBHOOK_ALLOW_HOSTS). */
  tls?: boolean;
  out?: (line: string) => void;
  /** Defaults to HAFATRA_DATA_DIR or .hafatra in the working directory. */
  dataDir?: string;
}

export interface WebhookListener {
  close(): Promise<void>;
  /** The secret deliveries are verified with from now on. */
  setSecret(secret: string): void;
  url: string;
  port: number;
  /** With tls only. */
  certPath: string | null;
}

const MAX_BODY_BYTES = 1024 * 1024;
const RENEW_WITHIN_MS = 7 * 86_400_000;

function loadOrCreateCertificate(dir: string): DevCertificate & { certPath: string } {
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = readFileSync(certPath, 'utf8');
    if (new Date(new X509Certificate(cert).validTo).getTime() - Date.now() > RENEW_WITHIN_MS) {
      return { cert, key: readFileSync(keyPath, 'utf8'), certPath };
    }
  }
  mkdirSync(dir, { recursive: true });
  const created = createDevCertificate({ validDays: 825 });
  writeFileSync(keyPath, created.key, { mode: 0o600 });
  writeFileSync(certPath, created.cert);
  return { ...created, certPath };
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolveBody(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : null));
    req.on('error', reject);
  });
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Event id and type from the headers, or from the JSON body when a sender left them out. */
function describeEvent(req: IncomingMessage, body: Buffer): { id: string; type: string } {
  let parsed: { id?: unknown; event?: unknown } = {};
  try {
    parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
  } catch {
    // Not JSON: the headers (or '-') will have to do.
  }
  const id = headerValue(req, EVENT_ID_HEADER) ?? (typeof parsed.id === 'string' ? parsed.id : '-');
  const type = headerValue(req, EVENT_TYPE_HEADER) ?? (typeof parsed.event === 'string' ? parsed.event : '-');
  return { id, type };
}

function deliveryHandler(secretOf: () => string, out: (line: string) => void) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const body = await readBody(req).catch(() => null);
    if (body === null) {
      res.writeHead(413).end();
      return;
    }
    const secret = secretOf();
    const valid = secret !== '' && verifyWebhookSignature(body, headerValue(req, SIGNATURE_HEADER) ?? '', secret);
    const event = describeEvent(req, body);
    out(`${new Date().toISOString()}  ${event.type}  ${event.id}  ${valid ? 'valid' : 'INVALID signature'}`);
    res.writeHead(valid ? 200 : 401, { 'Content-Type': 'text/plain' }).end(valid ? 'ok\n' : 'invalid signature\n');
  };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolveClose) => {
    server.closeAllConnections();
    server.close(() => resolveClose());
  });
}

export async function runWebhookListener(opts: WebhookListenerOptions): Promise<WebhookListener> {
  const out = opts.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  let secret = opts.secret ?? '';
  const handler = deliveryHandler(() => secret, out);
  const onRequest = (req: IncomingMessage, res: ServerResponse) => void handler(req, res);
  let certPath: string | null = null;
  let create = () => http.createServer(onRequest);
  if (opts.tls) {
    const dataDir = resolve(opts.dataDir ?? readSettings({ dataDir: settings.dataDir }).dataDir);
    const certificate = loadOrCreateCertificate(join(dataDir, 'webhook-listener'));
    certPath = certificate.certPath;
    create = () => https.createServer({ cert: certificate.cert, key: certificate.key }, onRequest);
  }
  // localhost may resolve to 127.0.0.1 or ::1 first; listen on both loopbacks, nothing wider.
  const v4 = create();
  await listen(v4, opts.port, '127.0.0.1');
  const port = (v4.address() as AddressInfo).port;
  const v6 = create();
  const servers = [v4];
  await listen(v6, port, '::1').then(
    () => servers.push(v6),
    () => undefined,
  ); // no IPv6 loopback here
  const url = `${opts.tls ? 'https' : 'http'}://localhost:${port}/`;
  out(`Listening for Hafatra webhooks on ${url}`);
  if (certPath) {
    out("Start Hafatra so that it trusts this listener's certificate and may deliver to localhost:");
    out(`  NODE_EXTRA_CA_CERTS=${certPath} HAFATRA_WEBHOOK_ALLOW_HOSTS=localhost hafatra start`);
  }
  return {
    url,
    port,
    certPath,
    setSecret: (next) => {
      secret = next;
    },
    close: async () => {
      await Promise.all(servers.map(closeServer));
    },
  };
}
