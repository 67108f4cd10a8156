import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhookPayload, verifyWebhookSignature } from '../../../src/webhooks/delivery/signature.js';

const body = JSON.stringify({ id: 'evt_1', event: 'message.sent', createdAt: '2025-01-01T00:00:00Z', data: { id: 'msg_1' } });
const now = 1_700_000_000;

describe('newWebhookSecret', () => {
  it('is whsec_ plus 32 random bytes in base64url, different every time', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(6), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });
});

describe('signWebhookPayload', () => {
  it('signs <t>.<body> with HMAC-SHA256 keyed by the whole secret, as a receiver with plain crypto would', () => {
    const secret = 'whsec_test';
    const header = signWebhookPayload(body, [secret], now);
    const expected = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
    expect(header).toBe(`t=${now},v1=${expected}`);
  });

  it('puts one v1 per secret, in order', () => {
    const header = signWebhookPayload(body, ['whsec_new', 'whsec_old'], now);
    const parts = header.split(',');
    expect(parts).toHaveLength(3);
    expect(parts[1]).toBe(signWebhookPayload(body, ['whsec_new'], now).split(',')[1]);
    expect(parts[2]).toBe(signWebhookPayload(body, ['whsec_old'], now).split(',')[1]);
  });

  it('refuses a fractional timestamp and an empty secret list', () => {
    expect(() => signWebhookPayload(body, ['s'], 1.5)).toThrow(RangeError);
    expect(() => signWebhookPayload(body, [], now)).toThrow(RangeError);
  });
});

describe('verifyWebhookSignature', () => {
  const secret = newWebhookSecret();
  const header = signWebhookPayload(body, [secret], now);

  it('accepts its own signature, with the body as string or Buffer', () => {
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: now })).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), header, [secret], { nowSeconds: now })).toBe(true);
  });

  it('accepts when any v1 matches any secret (rotation on either side)', () => {
    const rotated = signWebhookPayload(body, ['whsec_new', secret], now);
    expect(verifyWebhookSignature(body, rotated, secret, { nowSeconds: now })).toBe(true);
    expect(verifyWebhookSignature(body, header, ['whsec_other', secret], { nowSeconds: now })).toBe(true);
    expect(verifyWebhookSignature(body, rotated, ['whsec_a', 'whsec_b'], { nowSeconds: now })).toBe(false);
  });

  it('rejects a tampered body, a wrong secret and a changed timestamp', () => {
    expect(verifyWebhookSignature(body.replace('msg_1', 'msg_2'), header, secret, { nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature(body, header, 'whsec_wrong', { nowSeconds: now })).toBe(false);
    const shifted = header.replace(`t=${now}`, `t=${now + 1}`);
    expect(verifyWebhookSignature(body, shifted, secret, { nowSeconds: now })).toBe(false);
  });

  it('rejects timestamps outside the tolerance, either way (default 300 s)', () => {
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: now + 300 })).toBe(true);
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: now + 301 })).toBe(false);
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: now - 301 })).toBe(false);
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: now + 1000, toleranceSeconds: 1000 })).toBe(true);
  });

  it('uses the clock when no time is given', () => {
    const fresh = signWebhookPayload(body, [secret], Math.floor(Date.now() / 1000));
    expect(verifyWebhookSignature(body, fresh, secret)).toBe(true);
    expect(verifyWebhookSignature(body, header, secret)).toBe(false); // 2023: long expired
  });

  it('accepts upper-case hex and spaces after commas', () => {
    const loose = header.replace(',', ', ').toUpperCase().replace('T=', 't=').replace('V1=', 'v1=');
    expect(verifyWebhookSignature(body, loose, secret, { nowSeconds: now })).toBe(true);
  });

  const v1 = header.split(',')[1]!;
  it.each([
    ['empty', ''],
    ['garbage', 'not a signature'],
    ['no timestamp', v1],
    ['no v1', `t=${now}`],
    ['two timestamps', `t=${now},t=${now},${v1}`],
    ['non-numeric timestamp', `t=abc,${v1}`],
    ['negative timestamp', `t=-${now},${v1}`],
    ['short v1', `t=${now},v1=abcd`],
    ['non-hex v1', `t=${now},v1=${'z'.repeat(64)}`],
    ['v1 with extra digits', `t=${now},${v1}00`],
    ['other scheme only', `t=${now},v0=${v1.slice(3)}`],
    ['only separators', ',,,==,'],
  ])('returns false without throwing for a malformed header (%s)', (_name, bad) => {
    expect(verifyWebhookSignature(body, bad, secret, { nowSeconds: now })).toBe(false);
  });

  it('returns false for non-string headers and empty secrets', () => {
    expect(verifyWebhookSignature(body, undefined as unknown as string, secret, { nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature(body, header, [], { nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature(body, header, '', { nowSeconds: now })).toBe(false);
  });
});
