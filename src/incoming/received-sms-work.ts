import type { AppContext } from '../context/app-context.js';
import { startMobileMoneyWorker } from '../mobile-money/parse-worker.js';
import { startRetentionSweep } from './retention.js';

/** Background work for received SMS: mobile-money reading and the retention sweep. Returns the stopper. */
export function startReceivedSmsWork(ctx: AppContext): () => Promise<void> {
  const moneyWorker = startMobileMoneyWorker(ctx);
  const retention = startRetentionSweep(ctx);
  return async () => {
    await Promise.allSettled([moneyWorker.close(), retention.stop()]);
  };
}
