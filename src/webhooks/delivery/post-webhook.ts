// One delivery attempt: POST the signed body to the checked address over
// HTTPS (plain HTTP for an organization's private target). Never throws; every way of failing becomes { ok: false, error }.
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { poolFor } from './connection-pools.js';
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
 * Reads at most `cap` bytes, keeping the first KiB for the excerpt. Reading a short body to its
 * end lets the connection serve the next delivery; a longer one is cut off instead, and a body
 * that stalls is cut at the deadline: the status already decided the outcome.
 */
async function readCapped(body: Dispatcher.ResponseData['body'], cap: number): Promise<Buffer[]> {
  const kept: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (received < RESPONSE_EXCERPT_BYTES) kept.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - received));
      received += chunk.length;
      if (received > cap) {
        body.destroy();
        break;
      }
    }
  } catch {
    // Cut at the deadline, or the connection closed mid-body: what came is the excerpt.
  }
  return kept;
}

export async function postWebhook(req: WebhookPostRequest): Promise<WebhookPostResult> {
  const started = performance.now();
  const plain = req.url.protocol === 'http:';
  const port = req.url.port ? Number(req.url.port) : plain ? 80 : 443;
  const pool = poolFor({ host: req.url.host, port, address: req.address, family: req.family, plain, ca: req.ca });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), req.timeoutMs);
  const ended = (result: Omit<WebhookPostResult, 'durationMs'>): WebhookPostResult => ({ ...result, durationMs: Math.round(performance.now() - started) });
  try {
    // Host carries the URL's name: undici takes SNI and the certificate's name from it, while the
    // connection goes to the pool's checked address. Redirects are never followed by request().
    const response = await pool.request({
      method: 'POST',
      path: `${req.url.pathname}${req.url.search}`,
      headers: { ...req.headers, host: req.url.host },
      body: req.body,
      signal: deadline.signal,
    });
    const kept = await readCapped(response.body, req.responseBodyCap ?? DEFAULT_RESPONSE_BODY_CAP);
    return ended({ statusCode: response.statusCode, ...outcomeOf(response.statusCode), responseExcerpt: responseExcerpt(kept) });
  } catch (error) {
    if (deadline.signal.aborted) return ended({ ok: false, statusCode: null, error: 'timeout', responseExcerpt: null });
    return ended({ ok: false, statusCode: null, error: describeError(error as NodeJS.ErrnoException), responseExcerpt: null });
  } finally {
    clearTimeout(timer);
  }
}
