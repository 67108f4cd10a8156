import { HafatraError } from './errors.js';
import type { IncomingMessage, Message, MobileMoneyEvent, WebhookEventType } from './generated.js';

interface Envelope<E extends string, D> {
  /** The event id (the Hafatra-Event-Id header): deduplicate on it, delivery is at least once. */
  id: string;
  event: E;
  /** When it happened (retries keep it). */
  createdAt: string;
  data: D;
}

export type MessageEventType = Extract<WebhookEventType, `message.${string}`>;
/** A delivery's body (docs/webhooks.md): narrow on `event`. */
export type WebhookEvent =
  | Envelope<MessageEventType, Message>
  | Envelope<'incoming.received', IncomingMessage>
  | Envelope<'mobile_money.detected', MobileMoneyEvent>
  | Envelope<'webhook.test', { endpointId: string; message: string }>;

/** The delivery is not from Hafatra (or not now): answer it 4xx and do nothing with it. */
export class WebhookVerificationError extends HafatraError {
  override name = 'WebhookVerificationError';
}

export interface VerifyOptions {
  /** Largest distance between the signature's time and now. Default 300 s (docs/webhooks.md). */
  toleranceSeconds?: number;
  /** Now, in Unix seconds (tests). */
  nowSeconds?: number;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(',') : value;
}

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer): string => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** Equal strings compared in time that depends on their length only. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

async function hmacHex(secret: string, t: string, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`${t}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  return hex(await crypto.subtle.sign('HMAC', key, signed));
}

/**
 * Checks a webhook delivery and returns its event. `rawBody` is the body exactly as received
 * (a string or bytes: never JSON re-serialized), `headers` the request's (a Headers or Node's
 * `req.headers`), `secret` the endpoint's (whsec_…), or both secrets during a rotation.
 * Throws WebhookVerificationError when the Hafatra-Signature header is missing or malformed,
 * its time is more than `toleranceSeconds` away, or no v1 value matches.
 */
export async function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderBag, secret: string | readonly string[], opts: VerifyOptions = {}): Promise<WebhookEvent> {
  const signature = header(headers, 'hafatra-signature');
  if (!signature) throw new WebhookVerificationError('no Hafatra-Signature header');
  const parts = signature.split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const given = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!.toLowerCase());
  if (!t || !/^\d+$/.test(t) || given.length === 0) throw new WebhookVerificationError('malformed Hafatra-Signature header');
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(t)) > (opts.toleranceSeconds ?? 300)) throw new WebhookVerificationError('signature time outside the tolerance (a replay, or a clock off)');
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const secrets = typeof secret === 'string' ? [secret] : secret;
  let valid = false;
  // Every pair is compared, matched or not, so the time taken says nothing about which one matched.
  for (const s of secrets) {
    const expected = await hmacHex(s, t, body);
    for (const v of given) valid = constantTimeEqual(expected, v) || valid;
  }
  if (!valid) throw new WebhookVerificationError('signature does not match');
  try {
    return JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('signed body is not JSON');
  }
}
