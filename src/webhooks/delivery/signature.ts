// Webhook signatures, Stripe style: `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`,
// HMAC-SHA256 keyed with the whole secret string (prefix included) over
// `<t>.<raw body>`. One v1 per valid secret so receivers survive a rotation.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';
const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,12}$/;

/** `whsec_` followed by 32 random bytes in base64url (43 characters). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

function hmacHex(secret: string, timestampSeconds: number | string, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(rawBody).digest('hex');
}

export function signWebhookPayload(rawBody: string, secrets: string[], timestampSeconds: number): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative integer number of seconds');
  }
  if (secrets.length === 0) throw new RangeError('at least one secret is needed to sign a webhook');
  const parts = secrets.map((secret) => `v1=${hmacHex(secret, timestampSeconds, rawBody)}`);
  return [`t=${timestampSeconds}`, ...parts].join(',');
}

interface ParsedSignatureHeader {
  timestamp: string;
  signatures: string[];
}

/** Unknown keys are ignored (room for future schemes); anything odd in t or v1 yields null. */
function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  let timestamp: string | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !UNIX_SECONDS.test(value)) return null;
      timestamp = value;
    } else if (key === 'v1' && HEX_SHA256.test(value)) {
      signatures.push(value.toLowerCase());
    }
  }
  return timestamp !== null && signatures.length > 0 ? { timestamp, signatures } : null;
}

export interface VerifyOptions {
  /** How far the header's timestamp may be from now, either way. Default 300 s. */
  toleranceSeconds?: number;
  nowSeconds?: number;
}

/** True when any v1 in the header matches any of the secrets; never throws on bad input. */
export function verifyWebhookSignature(rawBody: string | Buffer, header: string, secrets: string | string[], opts: VerifyOptions = {}): boolean {
  if (typeof header !== 'string' || (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody))) return false;
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  const tolerance = opts.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(parsed.timestamp)) > tolerance) return false;
  const usableSecrets = (Array.isArray(secrets) ? secrets : [secrets]).filter((secret): secret is string => typeof secret === 'string' && secret.length > 0);
  let matched = false;
  for (const secret of usableSecrets) {
    const expected = Buffer.from(hmacHex(secret, parsed.timestamp, rawBody), 'hex');
    for (const candidate of parsed.signatures) {
      // Both sides are 32 bytes: candidates passed the 64-hex-digit check.
      if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
    }
  }
  return matched;
}
