import { randomBytes } from 'node:crypto';
import { bearerToken, hashSecret } from '../auth/api-key-secret.js';

/**
 * Device tokens are `hfd_` + 32 random bytes (base64url): told apart from API keys (`hfk_`) at
 * a glance, and with 256 bits of entropy a plain SHA-256 is a safe storage hash.
 */
export const DEVICE_TOKEN_PREFIX = 'hfd_';
const TOKEN_LENGTH = DEVICE_TOKEN_PREFIX.length + 43;

export function newDeviceToken(): { token: string; hash: Buffer } {
  const token = DEVICE_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashSecret(token) };
}

/** The SHA-256 of a well-formed device token from an Authorization header, else undefined. */
export function deviceTokenHash(authorization: string | undefined): Buffer | undefined {
  const token = bearerToken(authorization);
  if (!token?.startsWith(DEVICE_TOKEN_PREFIX) || token.length !== TOKEN_LENGTH) return undefined;
  return hashSecret(token);
}
