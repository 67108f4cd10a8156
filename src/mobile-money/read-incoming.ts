import type { AppContext } from '../context/app-context.js';
import { inTransaction } from '../db/pool.js';
import { selectUnreadSms } from './sql/select-unread-sms.js';
import { readMobileMoney, type Provider } from './reading/index.js';
import { initialAiState, runAiReader, type AiOutcome, type AiReader } from './ai/index.js';
import { concludeAi, insertReading } from './record-reading.js';
import { markChecked } from './sql/mark-checked.js';

/**
 * Reads received SMS for mobile money and records what they say, once each: SMS read before (or
 * purged meanwhile) are skipped, so a retried job or an overlapping recovery pass changes nothing.
 * The AI reader, when one runs, is called after the record committed (it may take seconds).
 */
export async function readIncoming(ctx: AppContext, ids: string[], reader: AiReader | null): Promise<{ read: number; recorded: number }> {
  const list = await selectUnreadSms(ctx.db, ids);
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
