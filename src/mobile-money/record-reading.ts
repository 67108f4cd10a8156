import type { Queryable } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { recordEvents } from '../events/record-events.js';
import type { MobileMoneyReading } from './reading/index.js';
import type { AiOutcome, AiState } from './ai/index.js';
import { EVENT_COLUMNS, toMobileMoneyEvent, type MobileMoneyRow } from './event-row.js';

/** The reading's columns in insert order, after id, org_id, incoming_message_id. */
export const READING_COLUMNS = `provider, classification, parsing_status, direction, amount_minor, currency, reference,
  counterparty_name, counterparty_phone_masked, provider_timestamp, balance_minor, fees_minor, parser_version,
  parser_confidence, ai_status, ai_provider, ai_model, ai_confidence`;

export function readingValues(r: MobileMoneyReading, ai: AiState): unknown[] {
  return [
    r.provider,
    r.classification,
    r.parsingStatus,
    r.direction,
    r.amountMinor,
    r.currency,
    r.reference,
    r.counterpartyName,
    r.counterpartyPhoneMasked,
    r.providerTimestamp,
    r.balanceMinor,
    r.feesMinor,
    r.parserVersion,
    r.parserConfidence,
    ai.status,
    ai.provider,
    ai.model,
    ai.confidence,
  ];
}

/**
 * A reference already recorded for the provider in the organization before this record makes a
 * `matched` reading `ambiguous`: replaying an old genuine SMS is a known fraud. The lock orders
 * two records of one reference read at the same moment.
 */
export async function withReplayCheck(tx: Queryable, orgId: string, eventId: string, reading: MobileMoneyReading): Promise<MobileMoneyReading> {
  if (reading.classification !== 'matched' || !reading.reference) return reading;
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [orgId, `${reading.provider}:${reading.reference}`]);
  const { rows } = await tx.query('SELECT 1 FROM mobile_money_events WHERE org_id = $1 AND provider = $2 AND reference = $3 AND id < $4 LIMIT 1', [
    orgId,
    reading.provider,
    reading.reference,
    eventId,
  ]);
  return rows.length > 0 ? { ...reading, classification: 'ambiguous' } : reading;
}

/** mobile_money.detected carries the whole record; a record waiting for its AI reader is announced once that ends. */
export async function recordDetected(tx: Queryable, row: MobileMoneyRow): Promise<void> {
  if (row.aiStatus === 'pending') return;
  await recordEvents(tx, row.orgId, [{ type: 'mobile_money.detected', data: () => toMobileMoneyEvent(row) }]);
}

/**
 * The record of one received SMS, at most once: a retried job or a racing recovery pass finds
 * the UNIQUE incoming_message_id taken and changes nothing. Marks the SMS read either way.
 */
export async function insertReading(tx: Queryable, sms: { id: string; orgId: string }, reading: MobileMoneyReading, ai: AiState): Promise<MobileMoneyRow | null> {
  const id = newId('mobileMoney');
  const checked = await withReplayCheck(tx, sms.orgId, id, reading);
  const { rows } = await tx.query(
    `INSERT INTO mobile_money_events (id, org_id, incoming_message_id, ${READING_COLUMNS})
     VALUES ($1, $2, $3, ${Array.from({ length: 18 }, (_, i) => `$${i + 4}`).join(', ')})
     ON CONFLICT (incoming_message_id) DO NOTHING RETURNING ${EVENT_COLUMNS}`,
    [id, sms.orgId, sms.id, ...readingValues(checked, ai)],
  );
  await markChecked(tx, [sms.id]);
  const row = rows[0] as MobileMoneyRow | undefined;
  if (!row) return null;
  await recordDetected(tx, row);
  return row;
}

export async function markChecked(tx: Queryable, incomingIds: string[]): Promise<void> {
  if (incomingIds.length === 0) return;
  await tx.query('UPDATE incoming_messages SET money_checked_at = now() WHERE id = ANY($1::text[]) AND money_checked_at IS NULL', [incomingIds]);
}

/**
 * Ends a `pending` AI state once. The reader's answers fill only fields the templates left
 * empty, and never change the classification: trust stays with the sender id.
 */
export async function concludeAi(tx: Queryable, eventId: string, outcome: AiOutcome, announce = true): Promise<MobileMoneyRow | null> {
  const f = outcome.fields;
  const { rows } = await tx.query(
    `UPDATE mobile_money_events SET ai_status = $2, ai_provider = $3, ai_model = $4, ai_confidence = $5,
       direction = COALESCE(direction, $6), amount_minor = COALESCE(amount_minor, $7), currency = COALESCE(currency, $8),
       reference = COALESCE(reference, $9), counterparty_name = COALESCE(counterparty_name, $10),
       counterparty_phone_masked = COALESCE(counterparty_phone_masked, $11),
       provider_timestamp = COALESCE(provider_timestamp, $12), balance_minor = COALESCE(balance_minor, $13),
       fees_minor = COALESCE(fees_minor, $14), updated_at = now()
     WHERE id = $1 AND ai_status = 'pending' RETURNING ${EVENT_COLUMNS}`,
    [
      eventId,
      outcome.ai.status,
      outcome.ai.provider,
      outcome.ai.model,
      outcome.ai.confidence,
      f?.direction ?? null,
      f?.amountMinor ?? null,
      f?.currency ?? null,
      f?.reference ?? null,
      f?.counterpartyName ?? null,
      f?.counterpartyPhoneMasked ?? null,
      f?.providerTimestamp ?? null,
      f?.balanceMinor ?? null,
      f?.feesMinor ?? null,
    ],
  );
  const row = rows[0] as MobileMoneyRow | undefined;
  if (!row) return null;
  if (announce) await recordDetected(tx, row);
  return row;
}
