import type { Message, MessageEvent, MessageStatus } from './schemas.js';

/** A messages row as selected by MESSAGE_COLUMNS. */
export interface MessageRow {
  id: string;
  orgId: string;
  to: string;
  body: string;
  status: MessageStatus;
  segments: number;
  encoding: 'gsm7' | 'ucs2';
  deviceId: string | null;
  requestedDeviceId: string | null;
  simSubscriptionId: number | null;
  batchId: string | null;
  resendOfId: string | null;
  failureCode: string | null;
  createdAt: Date;
  updatedAt: Date;
  claimedAt: Date | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
  expiresAt: Date;
}

const COLUMNS = `id, org_id AS "orgId", to_number AS "to", body, status, segments, encoding,
  device_id AS "deviceId", requested_device_id AS "requestedDeviceId", sim_subscription_id AS "simSubscriptionId",
  batch_id AS "batchId", resend_of_id AS "resendOfId", failure_code AS "failureCode", created_at AS "createdAt",
  updated_at AS "updatedAt", claimed_at AS "claimedAt", sent_at AS "sentAt", delivered_at AS "deliveredAt",
  failed_at AS "failedAt", expires_at AS "expiresAt"`;

export const MESSAGE_COLUMNS = COLUMNS;

/** The same columns qualified by a table alias, for joins and UPDATE … RETURNING. */
export const messageColumns = (alias: string) => COLUMNS.replaceAll(/(^|,\s*)(\w+)/g, `$1${alias}.$2`);

// The messages of one batch share their timestamps: each distinct instant is formatted once.
const isoCache = new Map<number, string>();
function isoOf(d: Date): string {
  const ms = d.getTime();
  let iso = isoCache.get(ms);
  if (iso === undefined) {
    if (isoCache.size >= 64) isoCache.clear();
    iso = d.toISOString();
    isoCache.set(ms, iso);
  }
  return iso;
}
const isoOrNull = (d: Date | null) => (d ? isoOf(d) : null);

export function toMessage(r: MessageRow): Message {
  return {
    id: r.id,
    to: r.to,
    body: r.body,
    status: r.status,
    segments: r.segments,
    encoding: r.encoding,
    deviceId: r.deviceId,
    requestedDeviceId: r.requestedDeviceId,
    simSubscriptionId: r.simSubscriptionId,
    batchId: r.batchId,
    resendOfId: r.resendOfId,
    failureCode: r.failureCode,
    createdAt: isoOf(r.createdAt),
    updatedAt: isoOf(r.updatedAt),
    claimedAt: isoOrNull(r.claimedAt),
    sentAt: isoOrNull(r.sentAt),
    deliveredAt: isoOrNull(r.deliveredAt),
    failedAt: isoOrNull(r.failedAt),
    expiresAt: isoOf(r.expiresAt),
  };
}

export interface MessageEventRow {
  fromStatus: MessageStatus | null;
  toStatus: MessageStatus;
  source: MessageEvent['source'];
  code: string | null;
  deviceId: string | null;
  at: Date;
}
