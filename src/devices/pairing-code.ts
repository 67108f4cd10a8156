import { createHash, randomInt } from 'node:crypto';

/**
 * Pairing codes are typed on a phone, so they are short and unambiguous: 8 characters of
 * Crockford's base32 (no I, L, O, U), shown as XXXX-XXXX. That is 40 bits; with a code living
 * 10 minutes and failed attempts capped per address and server-wide (src/devices/pairing.ts), a
 * guesser gets at most a few thousand tries at ~10^12 possibilities per live code.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 8;

export function newPairingCode(): string {
  const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]!);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** What a person may type: any case, with or without the dash or spaces; I/L read as 1, O as 0. */
export function normalizePairingCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

export function hashPairingCode(input: string): Buffer {
  return createHash('sha256').update(normalizePairingCode(input)).digest();
}
