import type { AppContext } from '../context/app-context.js';
import { inTransaction } from '../db/pool.js';
import { readMobileMoney, type MobileMoneyReading } from './reading/index.js';
import { initialAiState, type AiReader } from './ai/index.js';
import { aiReaderFromConfig } from './ai-reader-config.js';
import { countStoredSms } from './sql/count-stored-sms.js';
import { deleteUnreviewedEvent } from './sql/delete-unreviewed-event.js';
import { selectStoredSms, type StoredSms } from './sql/select-stored-sms.js';
import { updateReadingRow } from './sql/update-reading.js';
import { insertReading, readingValues, withReplayCheck } from './record-reading.js';
import { markChecked } from './sql/mark-checked.js';
import { finishAi } from './read-incoming.js';

export interface ReparseOptions {
  orgId?: string;
  /** Only SMS received at or after this time. */
  since?: Date;
  onProgress?: (done: number, total: number) => void;
  /** Overrides the configured AI reader (tests). */
  reader?: AiReader | null;
}

export interface ReparseSummary {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Records the templates no longer see as mobile money, deleted (unreviewed ones only). */
  removed: number;
  /** Reviewed records the templates no longer see as mobile money: kept, a member looked at them. */
  keptReviewed: number;
  /** SMS whose body retention already removed: nothing left to read. */
  skippedPurged: number;
}

const BATCH = 500;

/**
 * Reads stored SMS again with today's templates (after they changed) and brings the records in
 * line, keeping their review. A new record is announced (`mobile_money.detected`); a changed one
 * is not, there is no event type for that.
 */
export async function reparseStoredSms(ctx: AppContext, opts: ReparseOptions = {}): Promise<ReparseSummary> {
  const reader = opts.reader !== undefined ? opts.reader : aiReaderFromConfig(ctx.config);
  const scope = [opts.orgId ?? null, opts.since ?? null];
  const counts = await countStoredSms(ctx.db, opts.orgId ?? null, opts.since ?? null);
  const summary: ReparseSummary = {
    total: Number(counts.total),
    created: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    keptReviewed: 0,
    skippedPurged: Number(counts.purged),
  };
  let after = '';
  let done = 0;
  for (;;) {
    const batch = await selectStoredSms(ctx.db, scope, after, BATCH);
    if (batch.length === 0) break;
    for (const sms of batch) await reparseOne(ctx, sms, reader, summary);
    done += batch.length;
    after = batch[batch.length - 1]!.id;
    opts.onProgress?.(Math.min(done, summary.total), summary.total);
  }
  return summary;
}

async function reparseOne(ctx: AppContext, sms: StoredSms, reader: AiReader | null, summary: ReparseSummary): Promise<void> {
  const reading = readMobileMoney(sms);
  if (!sms.eventId) {
    if (!reading) return void (await markChecked(ctx.db, [sms.id]));
    const ai = initialAiState(reading, { consented: sms.aiConsent, reader });
    const row = await inTransaction(ctx.db, (tx) => insertReading(tx, sms, reading, ai));
    if (row) summary.created++;
    if (row?.aiStatus === 'pending') await finishAi(ctx, { eventId: row.id, provider: row.provider, body: sms.body }, reader);
    return;
  }
  if (!reading) {
    if (sms.reviewStatus === 'reviewed') summary.keptReviewed++;
    else if (await deleteUnreviewedEvent(ctx.db, sms.eventId)) summary.removed++;
    return;
  }
  const changed = await updateReading(ctx, sms, reading, reader);
  if (changed) summary.updated++;
  else summary.unchanged++;
}

async function updateReading(ctx: AppContext, sms: StoredSms, reading: MobileMoneyReading, reader: AiReader | null): Promise<boolean> {
  const eventId = sms.eventId!;
  const ai = initialAiState(reading, { consented: sms.aiConsent, reader });
  const changed = await inTransaction(ctx.db, async (tx) => {
    const values = readingValues(await withReplayCheck(tx, sms.orgId, eventId, reading), ai);
    if (ai.status !== 'pending' && sameValues(values, sms.current ?? [])) return false;
    await updateReadingRow(tx, eventId, values);
    return true;
  });
  if (ai.status === 'pending') await finishAi(ctx, { eventId, provider: reading.provider, body: sms.body }, reader, false);
  return changed;
}

function sameValues(next: unknown[], current: unknown[]): boolean {
  return next.every((v, i) => (v ?? null) === (current[i] ?? null));
}
