import type { AppContext } from '../context/app-context.js';
import { inTransaction, type Queryable } from '../db/pool.js';
import { readMobileMoney, type Provider } from './reading/index.js';
import { initialAiState, runAiReader, type AiOutcome, type AiReader } from './ai/index.js';
import { concludeAi, insertReading, markChecked } from './record-reading.js';

export interface SmsToRead {
  id: string;
  orgId: string;
  from: string;
  body: string;
  aiConsent: boolean;
}

/** The given SMS that still have a body and were not read yet; others are skipped silently. */
async function loadUnread(db: Queryable, ids: string[]): Promise<SmsToRead[]> {
  const { rows } = await db.query(
    `SELECT i.id, i.org_id AS "orgId", i.from_number AS "from", i.body, o.ai_consent AS "aiConsent"
     FROM incoming_messages i JOIN organizations o ON o.id = i.org_id
     WHERE i.id = ANY($1::text[]) AND i.money_checked_at IS NULL AND i.body IS NOT NULL ORDER BY i.id`,
    [ids],
  );
  return rows as SmsToRead[];
}

/**
 * Reads received SMS for mobile money and records what they say, once each: SMS read before (or
 * purged meanwhile) are skipped, so a retried job or an overlapping recovery pass changes nothing.
 * The AI reader, when one runs, is called after the record committed (it may take seconds).
 */
export async function readIncoming(ctx: AppContext, ids: string[], reader: AiReader | null): Promise<{ read: number; recorded: number }> {
  const list = await loadUnread(ctx.db, ids);
  const nothing: string[] = [];
  const waitingForAi: Array<{ eventId: string; provider: Provider; body: string }> = [];
  let recorded = 0;
  for (const sms of list) {
    const reading = readMobileMoney(sms);
    if (!reading) {
      nothing.push(sms.id);
      continue;
    }
    const ai = initialAiState(reading, { consented: sms.aiConsent, reader });
    const row = await inTransaction(ctx.db, (tx) => insertReading(tx, sms, reading, ai));
    if (!row) continue;
    recorded++;
    if (row.aiStatus === 'pending') waitingForAi.push({ eventId: row.id, provider: row.provider, body: sms.body });
  }
  await markChecked(ctx.db, nothing);
  for (const w of waitingForAi) await finishAi(ctx, w, reader);
  return { read: list.length, recorded };
}

/** Runs the reader for a `pending` record and stores its outcome; announces the record unless it was announced before. */
export async function finishAi(ctx: AppContext, w: { eventId: string; provider: Provider; body: string | null }, reader: AiReader | null, announce = true): Promise<void> {
  const none = { provider: null, model: null, confidence: null };
  let outcome: AiOutcome;
  if (!reader) outcome = { ai: { status: 'ai_unavailable', ...none }, fields: null, error: null };
  else if (w.body === null) outcome = { ai: { status: 'failed', provider: reader.provider, model: reader.model, confidence: null }, fields: null, error: 'body purged' };
  else outcome = await runAiReader(reader, { provider: w.provider }, w.body);
  if (outcome.error) ctx.log.warn({ eventId: w.eventId, error: outcome.error }, 'mobile-money AI reader failed');
  await inTransaction(ctx.db, (tx) => concludeAi(tx, w.eventId, outcome, announce));
}
