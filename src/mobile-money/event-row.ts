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

/** The reading's columns in insert order, after id, org_id, incoming_message_id. */
export const READING_COLUMNS = `provider, classification, parsing_status, direction, amount_minor, currency, reference,
  counterparty_name, counterparty_phone_masked, provider_timestamp, balance_minor, fees_minor, parser_version,
  parser_confidence, ai_status, ai_provider, ai_model, ai_confidence`;

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
