// One delivery attempt: POST the signed body to the checked address over
// HTTPS (plain HTTP for an organization's private target). Never throws; every way of failing becomes { ok: false, error }.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { agentFor } from './agent-pool.js';
import { withoutBrackets } from '../../net/ip-text.js';
import { RESPONSE_EXCERPT_BYTES, responseExcerpt } from './response-excerpt.js';

export const DEFAULT_RESPONSE_BODY_CAP = 4 * 1024;

export interface WebhookPostRequest {
  url: URL;
  /** The address checkWebhookUrl approved; the connection goes there. */
  address: string;
  family: 4 | 6;
  body: string;
  headers: Record<string, string>;
  /** Connect, TLS, request and response head, all together. */
  timeoutMs: number;
  responseBodyCap?: number;
  /** Extra trusted CA certificates (PEM), for tests; NODE_EXTRA_CA_CERTS works without it. */
  ca?: string | string[];
}

export interface WebhookPostResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The first KiB of the answer's body as text (null without an answer), for the inspector. */
  responseExcerpt: string | null;
}

const CERTIFICATE_ERROR = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

function describeError(error: NodeJS.ErrnoException): string {
  const code = error.code ?? '';
  if (CERTIFICATE_ERROR.test(code)) return `tls error: ${error.message}`;
  return code ? `connection error: ${code}` : `connection error: ${error.message}`;
}

function outcomeOf(statusCode: number): Pick<WebhookPostResult, 'ok' | 'error'> {
  if (statusCode >= 200 && statusCode < 300) return { ok: true, error: null };
  if (statusCode >= 300 && statusCode < 400) return { ok: false, error: 'redirect not followed' };
  return { ok: false, error: `HTTP ${statusCode}` };
}

/**
 * Read at most `cap` bytes, keeping the first KiB for the excerpt. Draining a short body lets the
 * socket go back to the keep-alive pool; a longer one is cut off instead.
 */
function drainCapped(response: IncomingMessage, cap: number, kept: Buffer[], done: () => void): void {
  let received = 0;
  response.on('data', (chunk: Buffer) => {
    if (received < RESPONSE_EXCERPT_BYTES) kept.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - received));
    received += chunk.length;
    if (received > cap) {
      response.destroy();
      done();
    }
  });
  response.on('end', done);
  response.on('error', done);
  response.on('close', done);
}

export function postWebhook(req: WebhookPostRequest): Promise<WebhookPostResult> {
  const started = performance.now();
  const hostname = withoutBrackets(req.url.hostname);
  const plain = req.url.protocol === 'http:';
  const port = req.url.port ? Number(req.url.port) : plain ? 80 : 443;
  return new Promise((resolve) => {
    let settled = false;
    let result: Omit<WebhookPostResult, 'durationMs' | 'responseExcerpt'> | null = null;
    const kept: Buffer[] = [];
    const finish = (fallback: Omit<WebhookPostResult, 'durationMs' | 'responseExcerpt'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...(result ?? fallback), durationMs: Math.round(performance.now() - started), responseExcerpt: result ? responseExcerpt(kept) : null });
    };
    const request = (plain ? http : https).request({
      method: 'POST',
      host: hostname,
      port,
      path: `${req.url.pathname}${req.url.search}`,
      // SNI must be a name, never an IP literal; certificate checks use `host` either way.
      servername: isIP(hostname) ? '' : hostname,
      agent: agentFor({ hostname, port, address: req.address, family: req.family, plain }),
      ca: req.ca,
      headers: { ...req.headers, 'Content-Length': String(Buffer.byteLength(req.body)) },
    });
    // The status decides the outcome as soon as the response head arrives; a
    // body that stalls afterwards is cut at the deadline without changing it.
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, statusCode: null, error: 'timeout' });
    }, req.timeoutMs);
    request.on('response', (response) => {
      const statusCode = response.statusCode ?? 0;
      result = { statusCode, ...outcomeOf(statusCode) };
      drainCapped(response, req.responseBodyCap ?? DEFAULT_RESPONSE_BODY_CAP, kept, () => finish(result!));
    });
    request.on('error', (error) => finish({ ok: false, statusCode: null, error: describeError(error) }));
    request.end(req.body);
  });
}
