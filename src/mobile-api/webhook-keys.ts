import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/pool.js';
import { ensureSigningKey } from './sql/ensure-signing-key.js';

/**
 * The key a phone signs its webhooks with, made on its first settings sync and the same ever
 * after (a new one would leave the phone's queued webhooks unverifiable). 32 random bytes,
 * base64url: the app takes any string.
 */
export async function signingKeyFor(db: Queryable, deviceId: string): Promise<string> {
  return ensureSigningKey(db, deviceId, randomBytes(32).toString('base64url'));
}

/** The phone a webhook names, when it is a mobile phone that may still report, with its key. */
export interface WebhookSender {
  deviceId: string;
  orgId: string;
  signingKey: string;
  appVersion: string | null;
  confirmsCancellation: boolean;
}
