import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys are `hfk_` + 32 random bytes (base64url). The prefix makes a leaked key easy to spot
 * (secret scanners, logs); 256 bits of entropy make a plain SHA-256 a safe storage hash.
 */
export const API_KEY_PREFIX = 'hfk_';

export function newApiKeySecret(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export function secretHint(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX.length + 6);
}

/**
 * The token of `Authorization: Bearer <token>`, or undefined. Every secret is printable ASCII; a
 * token with any other byte (read one character per byte, src/http/request-headers.ts) is no
 * token, whatever key it would otherwise be hashed into.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ \t]+([\x21-\x7e]+)$/i.exec(header);
  return match?.[1];
}
