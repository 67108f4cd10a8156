import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'hafatra_session';

/** 32 random bytes: the cookie's value. Only its SHA-256 is stored. */
export const newSessionToken = (): string => randomBytes(32).toString('base64url');

export const hashSessionToken = (token: string): Buffer => createHash('sha256').update(token).digest();

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The session token in a Cookie header, if any and well formed. */
export function sessionTokenFromCookie(cookie: string | undefined): string | undefined {
  if (!cookie) return undefined;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN_SHAPE.test(value) ? value : undefined;
  }
  return undefined;
}

/** Set-Cookie for a new session: the browser keeps it at most as long as the server does. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
