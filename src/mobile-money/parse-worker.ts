import { Worker } from 'bullmq';
import type { AppContext } from '../context/app-context.js';
import { every } from '../periodic/every.js';
import type { AiReader } from './ai/index.js';
import { selectStuckAi } from './sql/select-stuck-ai.js';
import { selectUncheckedSms } from './sql/select-unchecked-sms.js';
import { aiReaderFromConfig } from './ai-reader-config.js';
import { PARSE_QUEUE, bullConnection, type ParseJobData } from '../context/parse-queue.js';
import { finishAi, readIncoming } from './read-incoming.js';

export interface MobileMoneyWorkerOptions {
  /** How often the recovery pass looks for SMS whose parse job was lost (default 5 s). */
  recoveryIntervalMs?: number;
  /** Only SMS stored this long ago are recovered: younger ones are still in their job (default 10 s). */
  recoveryGraceMs?: number;
  /** A record left `pending` this long (the process died during the AI call) is asked again (default 2 min). */
  aiStuckMs?: number;
  /** Overrides the configured AI reader (tests). */
  reader?: AiReader | null;
}

export interface MobileMoneyWorker {
  /** Runs the recovery pass now. */
  recoverNow(): Promise<void>;
  close(): Promise<void>;
}

const RECOVERY_BATCH = 200;
const RECOVERY_BATCHES_PER_PASS = 10;

/** The BullMQ worker reading received SMS, and the pass that catches what Redis lost. */
export function startMobileMoneyWorker(ctx: AppContext, opts: MobileMoneyWorkerOptions = {}): MobileMoneyWorker {
  const reader = opts.reader !== undefined ? opts.reader : aiReaderFromConfig(ctx.config);
  const connection = bullConnection(ctx.config, 'hafatra-mobile-money');
  const worker = new Worker<ParseJobData>(PARSE_QUEUE, async (job) => readIncoming(ctx, job.data.incomingIds, reader), { connection, prefix: ctx.keys.bullPrefix.mobileMoney(), concurrency: 4 });
  worker.on('error', (err) => ctx.log.error({ err }, 'mobile-money worker error'));
  worker.on('failed', (job, err) => ctx.log.warn({ err, jobId: job?.id }, 'mobile-money parse job failed'));
  const recovery = every(opts.recoveryIntervalMs ?? 5000, 'mobile-money-recovery', ctx, async () => {
    await recoverUnread(ctx, reader, opts.recoveryGraceMs ?? 10_000);
    await resumeStuckAi(ctx, reader, opts.aiStuckMs ?? 120_000);
  });
  return {
    recoverNow: () => recovery.runNow(),
    async close() {
      await recovery.stop();
      await worker.close();
      await connection.quit().catch(() => undefined);
    },
  };
}

async function recoverUnread(ctx: AppContext, reader: AiReader | null, graceMs: number): Promise<void> {
  for (let i = 0; i < RECOVERY_BATCHES_PER_PASS; i++) {
    const ids = await selectUncheckedSms(ctx.db, graceMs, RECOVERY_BATCH);
    if (ids.length === 0) return;
    const { read } = await readIncoming(ctx, ids, reader);
    if (read === 0 || ids.length < RECOVERY_BATCH) return;
  }
}

async function resumeStuckAi(ctx: AppContext, reader: AiReader | null, stuckMs: number): Promise<void> {
  for (const r of await selectStuckAi(ctx.db, stuckMs)) await finishAi(ctx, r, reader);
}
