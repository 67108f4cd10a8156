import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { errors } from '../errors/errors.js';
import { withHashingSlot } from './hashing-slots.js';

/**
 * Passwords are kept as scrypt hashes (memory-hard): `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`.
 * The parameters travel with each hash, so they can be raised later without locking anyone out.
 */
const LOG2_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
export const PASSWORD_MIN_LENGTH = 10;
/** Bounds the work an attacker can make one sign-in cost. */
export const PASSWORD_MAX_LENGTH = 256;

function derive(password: string, salt: Buffer, log2n: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** log2n, r, p, maxmem: 256 * 2 ** log2n * r };
  return withHashingSlot(() => new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)))));
}

/** The rule a new password must follow, as a 400 naming the field. */
export function checkNewPassword(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw errors.invalid(`${field}: must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw errors.invalid(`${field}: must be at most ${PASSWORD_MAX_LENGTH} characters`);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, LOG2_N, R, P);
  return `scrypt$${LOG2_N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const DUMMY = hashPassword('not anybody’s password');

/**
 * Whether `password` matches `stored`. With no stored hash (unknown email, no password yet) a
 * dummy hash is checked all the same, so the answer takes as long either way.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH) return false;
  const parts = (stored ?? (await DUMMY)).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, log2n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(log2n), Number(r), Number(p));
  return stored != null && expected.length === actual.length && timingSafeEqual(expected, actual);
}
