import type { Queryable } from '../db/pool.js';
import { iso } from '../schemas/schema-kit.js';
import type { MobileMoneyEvent } from './schemas.js';
import type { Classification, ParsingStatus, Provider, ReadingFields } from './reading/index.js';
import type { AiStatus } from './ai/index.js';

/** A mobile_money_events row as selected by EVENT_COLUMNS. */
export interface MobileMoneyRow extends ReadingFields {
  id: string;
  orgId: string;
  incomingMessageId: string;
  provider: Provider;
  classification: Classification;
  parsingStatus: ParsingStatus;
  parserVersion: string;
  parserConfidence: number | null;
  aiStatus: AiStatus;
  aiProvider: string | null;
  aiModel: string | null;
  aiConfidence: number | null;
  reviewStatus: 'none' | 'reviewed';
  reviewNote: string | null;
  reviewedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const EVENT_COLUMNS = `id, org_id AS "orgId", incoming_message_id AS "incomingMessageId", provider, classification,
  parsing_status AS "parsingStatus", direction, amount_minor AS "amountMinor", currency, reference,
  counterparty_name AS "counterpartyName", counterparty_phone_masked AS "counterpartyPhoneMasked",
  provider_timestamp AS "providerTimestamp", balance_minor AS "balanceMinor", fees_minor AS "feesMinor",
  parser_version AS "parserVersion", parser_confidence AS "parserConfidence", ai_status AS "aiStatus",
  ai_provider AS "aiProvider", ai_model AS "aiModel", ai_confidence AS "aiConfidence", review_status AS "reviewStatus",
  review_note AS "reviewNote", reviewed_at AS "reviewedAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Every record says `unverified`: a recognized SMS is not proof of a transaction. */
export function toMobileMoneyEvent(r: MobileMoneyRow): MobileMoneyEvent {
  return {
    id: r.id,
    incomingMessageId: r.incomingMessageId,
    provider: r.provider,
    classification: r.classification,
    parsingStatus: r.parsingStatus,
    verification: 'unverified',
    direction: r.direction,
    amountMinor: r.amountMinor,
    currency: r.currency,
    reference: r.reference,
    counterpartyName: r.counterpartyName,
    counterpartyPhoneMasked: r.counterpartyPhoneMasked,
    providerTimestamp: r.providerTimestamp,
    balanceMinor: r.balanceMinor,
    feesMinor: r.feesMinor,
    parserVersion: r.parserVersion,
    parserConfidence: r.parserConfidence,
    ai: { status: r.aiStatus, provider: r.aiProvider, model: r.aiModel, confidence: r.aiConfidence },
    review: { status: r.reviewStatus, note: r.reviewNote, reviewedAt: iso(r.reviewedAt) },
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function selectEvent(db: Queryable, orgId: string, id: string): Promise<MobileMoneyRow | undefined> {
  const { rows } = await db.query(`SELECT ${EVENT_COLUMNS} FROM mobile_money_events WHERE id = $1 AND org_id = $2`, [id, orgId]);
  return rows[0] as MobileMoneyRow | undefined;
}

export async function selectEventById(db: Queryable, id: string): Promise<MobileMoneyRow | undefined> {
  const { rows } = await db.query(`SELECT ${EVENT_COLUMNS} FROM mobile_money_events WHERE id = $1`, [id]);
  return rows[0] as MobileMoneyRow | undefined;
}

/** Newest first; `before` is the last id of the previous page. Fetches limit + 1 to detect a next page. */
export async function selectEventPage(db: Queryable, q: { orgId: string; classification?: string; before: string | null; limit: number }): Promise<MobileMoneyRow[]> {
  const { rows } = await db.query(
    `SELECT ${EVENT_COLUMNS} FROM mobile_money_events
     WHERE org_id = $1 AND ($2::text IS NULL OR classification = $2) AND ($3::text IS NULL OR id < $3)
     ORDER BY id DESC LIMIT $4`,
    [q.orgId, q.classification ?? null, q.before, q.limit + 1],
  );
  return rows as MobileMoneyRow[];
}
