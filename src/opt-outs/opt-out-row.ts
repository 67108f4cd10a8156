import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from '../schemas/schema-kit.js';

export const OPT_OUT_SOURCES = ['sms', 'api', 'member'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** An entry of GET /v1/opt-outs. */
export const OptOutSchema = Type.Object({
  id: Type.String(),
  number: Type.String({ description: 'E.164' }),
  source: Type.Union(
    OPT_OUT_SOURCES.map((s) => Type.Literal(s)),
    { description: 'sms: a stop word the number sent; api: an API key; member: the dashboard or the CLI' },
  ),
  incomingMessageId: Nullable(Type.String({ description: 'The received SMS that opted the number out (source sms)' })),
  reason: Nullable(Type.String()),
  createdAt: DateTime,
});
export type OptOut = Static<typeof OptOutSchema>;

export interface OptOutRow {
  id: string;
  number: string;
  source: OptOutSource;
  incomingMessageId: string | null;
  reason: string | null;
  createdAt: Date;
}

export const OPT_OUT_COLUMNS = `id, number, source, incoming_message_id AS "incomingMessageId", reason, created_at AS "createdAt"`;

export const toOptOut = (r: OptOutRow): OptOut => ({ ...r, createdAt: r.createdAt.toISOString() });

/** Who made a change, as opt_outs and opt_out_changes record it. */
export interface OptOutCause {
  source: OptOutSource;
  /** The received SMS, for source sms. */
  incomingMessageId?: string | null;
}
