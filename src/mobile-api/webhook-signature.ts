import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How far a webhook's X-Timestamp may be from the server's clock. The app signs each attempt
 * anew (its retries carry fresh times), so this only bounds a replay, and leaves room for a
 * phone clock a few minutes off.
 */
export const SIGNATURE_WINDOW_SECONDS = 600;

/** The app's X-Signature: lowercase hex HMAC-SHA256, keyed by the UTF-8 key, over the body's bytes then the timestamp's. */
export function webhookSignature(key: string, body: Buffer, timestamp: string): string {
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(body).update(timestamp, 'utf8').digest('hex');
}

export type SignatureProblem = 'missing' | 'stale' | 'mismatch';

/** Null when the webhook was signed with this key within the window. */
export function signatureProblem(key: string, body: Buffer, timestamp: string | undefined, signature: string | undefined, nowMs = Date.now()): SignatureProblem | null {
  if (!timestamp || !signature) return 'missing';
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) - nowMs / 1000) > SIGNATURE_WINDOW_SECONDS) return 'stale';
  const given = Buffer.from(signature.toLowerCase(), 'utf8');
  const expected = Buffer.from(webhookSignature(key, body, timestamp), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'mismatch';
}
