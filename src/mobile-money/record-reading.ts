import type { Queryable } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { recordEvents } from '../events/record-events.js';
import type { MobileMoneyReading } from './reading/index.js';
import type { AiOutcome, AiState } from './ai/index.js';
import { toMobileMoneyEvent, type MobileMoneyRow } from './event-row.js';
import { concludeAiRow } from './sql/conclude-ai.js';
import { insertReadingRow } from './sql/insert-reading.js';
import { lockReadingReference } from './sql/lock-reading-reference.js';
import { referenceRecordedBefore } from './sql/reference-recorded-before.js';
import { markChecked } from './sql/mark-checked.js';

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
  await lockReadingReference(tx, orgId, `${reading.provider}:${reading.reference}`);
  return (await referenceRecordedBefore(tx, orgId, reading.provider, reading.reference, eventId)) ? { ...reading, classification: 'ambiguous' } : reading;
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
  const row = await insertReadingRow(tx, id, sms, readingValues(checked, ai));
  await markChecked(tx, [sms.id]);
  if (!row) return null;
  await recordDetected(tx, row);
  return row;
}

/**
 * Ends a `pending` AI state once. The reader's answers fill only fields the templates left
 * empty, and never change the classification: trust stays with the sender id.
 */
export async function concludeAi(tx: Queryable, eventId: string, outcome: AiOutcome, announce = true): Promise<MobileMoneyRow | null> {
  const row = await concludeAiRow(tx, eventId, outcome);
  if (!row) return null;
  if (announce) await recordDetected(tx, row);
  return row;
}
