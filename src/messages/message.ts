import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, NullableDateTime } from '../schemas/schema-kit.js';
import { MESSAGE_STATUSES, type MessageStatus } from './status.js';

/**
 * What a Message is, in every form it takes: the public resource (schema and type), the row it
 * is read from, and the three ways one is built (toMessage from a row, messageJsonSql in SQL,
 * acceptedMessages from a send's fields). Kept side by side so that a field added to one is seen
 * missing from the others.
 */

export { MESSAGE_STATUSES, TERMINAL_STATUSES, type MessageStatus } from './status.js';

const StatusSchema = Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s)));

export const MessageSchema = Type.Object({
  id: Type.String(),
  to: Type.String(),
  body: Type.String(),
  status: StatusSchema,
  segments: Type.Integer(),
  encoding: Type.Union([Type.Literal('gsm7'), Type.Literal('ucs2')]),
  deviceId: Nullable(Type.String()),
  requestedDeviceId: Nullable(Type.String()),
  simSubscriptionId: Nullable(Type.Integer()),
  batchId: Nullable(Type.String()),
  resendOfId: Nullable(Type.String()),
  failureCode: Nullable(
    Type.String({
      description:
        "Why a failed message failed: the phone's code (Android's SmsManager results: generic_failure, no_service, radio_off, …), device_revoked, or opted_out (the recipient is on the organization's opt-out list; the message was created failed and never sent)",
    }),
  ),
  createdAt: DateTime,
  updatedAt: DateTime,
  claimedAt: NullableDateTime,
  sentAt: NullableDateTime,
  deliveredAt: NullableDateTime,
  failedAt: NullableDateTime,
  expiresAt: DateTime,
  /** Beyond the spec (docs/decisions.md, "Scheduled sends"): when a scheduled send is queued; null when sent at once. */
  sendAt: NullableDateTime,
});
export type Message = Static<typeof MessageSchema>;

export const MessageEventSchema = Type.Object({
  fromStatus: Nullable(StatusSchema),
  toStatus: StatusSchema,
  source: Type.Union(['api', 'member', 'device', 'system'].map((s) => Type.Literal(s))),
  code: Nullable(Type.String()),
  deviceId: Nullable(Type.String()),
  at: DateTime,
});
export type MessageEvent = Static<typeof MessageEventSchema>;

/** A messages row as selected by MESSAGE_COLUMNS: what toMessage and messageJsonSql read. */
export interface MessageRow {
  id: string;
  orgId: string;
  to: string;
  body: string;
  status: MessageStatus;
  segments: number;
  encoding: Message['encoding'];
  deviceId: string | null;
  requestedDeviceId: string | null;
  simSubscriptionId: number | null;
  batchId: string | null;
  resendOfId: string | null;
  failureCode: string | null;
  /** Not part of the public Message: 1 when the send asked for priority "high". */
  priority: number;
  /** Not part of the public Message: the send ignores the send windows (quiet hours). */
  ignoreSendWindows: boolean;
  createdAt: Date;
  updatedAt: Date;
  claimedAt: Date | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
  expiresAt: Date;
  /** A scheduled send's due time (migration 029); null when it was queued at once. */
  sendAt: Date | null;
}

const COLUMNS = `id, org_id AS "orgId", to_number AS "to", body, status, segments, encoding,
  device_id AS "deviceId", requested_device_id AS "requestedDeviceId", sim_subscription_id AS "simSubscriptionId",
  batch_id AS "batchId", resend_of_id AS "resendOfId", failure_code AS "failureCode", priority,
  ignore_send_windows AS "ignoreSendWindows", created_at AS "createdAt",
  updated_at AS "updatedAt", claimed_at AS "claimedAt", sent_at AS "sentAt", delivered_at AS "deliveredAt",
  failed_at AS "failedAt", expires_at AS "expiresAt", send_at AS "sendAt"`;

export const MESSAGE_COLUMNS = COLUMNS;

/** A Message's fields as MESSAGE_COLUMNS names them, in the schema's order: rows selected as the API shows them. */
export const MESSAGE_FIELDS = Object.keys(MessageSchema.properties)
  .map((k) => `"${k}"`)
  .join(', ');

/** The same columns qualified by a table alias, for joins and UPDATE … RETURNING. */
export const messageColumns = (alias: string) => COLUMNS.replaceAll(/(^|,\s*)(\w+)/g, `$1${alias}.$2`);

/**
 * A MessageRow read with ISO_TIMESTAMPS (src/db/timestamptz.ts): its instants already in the
 * API's text, for pages that only turn rows into JSON.
 */
export type MessageRowIso = { [K in keyof MessageRow]: MessageRow[K] extends Date ? string : MessageRow[K] extends Date | null ? string | null : MessageRow[K] };

// The messages of one batch share their timestamps: each distinct instant is formatted once.
const isoCache = new Map<number, string>();
function isoOf(d: Date | string): string {
  if (typeof d === 'string') return d;
  const ms = d.getTime();
  let iso = isoCache.get(ms);
  if (iso === undefined) {
    if (isoCache.size >= 64) isoCache.clear();
    iso = d.toISOString();
    isoCache.set(ms, iso);
  }
  return iso;
}
const isoOrNull = (d: Date | string | null) => (d ? isoOf(d) : null);

export function toMessage(r: MessageRow | MessageRowIso): Message {
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
    sendAt: isoOrNull(r.sendAt),
  };
}

/** What the messages of one send share, timestamps already as the API writes them. */
export type SharedFields = Pick<Message, 'body' | 'segments' | 'encoding' | 'requestedDeviceId' | 'simSubscriptionId' | 'batchId' | 'resendOfId' | 'createdAt' | 'expiresAt'> & {
  /** Absent in the idempotency answers stored before scheduled sends. */
  sendAt?: string | null;
};

/**
 * The messages of a send as its 202 shows them, before any row is read back: `accepted` until
 * their sendAt, else `queued`. A recipient with a failureCode was refused at the send (an
 * opted-out number): its message is created failed.
 */
export function acceptedMessages(f: SharedFields, recipients: { id: string; to: string; failureCode?: string }[]): Message[] {
  return recipients.map(
    (r): Message => ({
      id: r.id,
      to: r.to,
      body: f.body,
      status: r.failureCode !== undefined ? 'failed' : f.sendAt ? 'accepted' : 'queued',
      segments: f.segments,
      encoding: f.encoding,
      deviceId: null,
      requestedDeviceId: f.requestedDeviceId,
      simSubscriptionId: f.simSubscriptionId,
      batchId: f.batchId,
      resendOfId: f.resendOfId,
      failureCode: r.failureCode ?? null,
      createdAt: f.createdAt,
      updatedAt: f.createdAt,
      claimedAt: null,
      sentAt: null,
      deliveredAt: null,
      failedAt: r.failureCode === undefined ? null : f.createdAt,
      expiresAt: f.expiresAt,
      sendAt: f.sendAt ?? null,
    }),
  );
}

/** A timestamptz as the API writes it (toISOString), in SQL. */
export const isoSql = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * toMessage in SQL, for statements that write a message's webhook event in the same statement as
 * its change (src/messages/transitions.ts). test/messages/transition-statement.test.ts holds the two equal.
 */
export const messageJsonSql = (a: string) => `json_build_object(
  'id', ${a}.id, 'to', ${a}.to_number, 'body', ${a}.body, 'status', ${a}.status, 'segments', ${a}.segments,
  'encoding', ${a}.encoding, 'deviceId', ${a}.device_id, 'requestedDeviceId', ${a}.requested_device_id,
  'simSubscriptionId', ${a}.sim_subscription_id, 'batchId', ${a}.batch_id, 'resendOfId', ${a}.resend_of_id,
  'failureCode', ${a}.failure_code, 'createdAt', ${isoSql(`${a}.created_at`)}, 'updatedAt', ${isoSql(`${a}.updated_at`)},
  'claimedAt', ${isoSql(`${a}.claimed_at`)}, 'sentAt', ${isoSql(`${a}.sent_at`)}, 'deliveredAt', ${isoSql(`${a}.delivered_at`)},
  'failedAt', ${isoSql(`${a}.failed_at`)}, 'expiresAt', ${isoSql(`${a}.expires_at`)}, 'sendAt', ${isoSql(`${a}.send_at`)})`;

export interface MessageEventRow {
  fromStatus: MessageStatus | null;
  toStatus: MessageStatus;
  source: MessageEvent['source'];
  code: string | null;
  deviceId: string | null;
  at: Date;
}
