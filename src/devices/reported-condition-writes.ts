import { TickBatcher } from '../batching/tick-batcher.js';
import { groupBy } from '../batching/group-by.js';
import { perContext } from '../batching/per-context.js';
import { roundsByKey } from '../batching/rounds.js';
import type { AppContext } from '../context/app-context.js';
import { updateReportedConditions, type ReportedColumn, type ReportedCondition } from './sql/update-reported-conditions.js';

export interface ConditionWrite {
  deviceId: string;
  /** The columns the heartbeat reported and their values, in the same order. */
  columns: ReportedColumn[];
  values: unknown[];
  defaultSmsAppReported: boolean;
}

const conditionWrites = perContext((ctx: AppContext) => new TickBatcher((writes: ConditionWrite[]) => writeConditions(ctx, writes), 500));

/**
 * A heartbeat without SIMs: the phone marked seen with what it reported; its condition after,
 * or undefined for a revoked or unknown phone. The heartbeats of one event-loop turn that
 * reported the same columns share one statement: a fleet of 10,000 phones heartbeats ~330 times
 * a second, and all of them at once when their sockets open.
 */
export function writeReportedCondition(ctx: AppContext, write: ConditionWrite): Promise<ReportedCondition | undefined> {
  return conditionWrites(ctx).load(write);
}

async function writeConditions(ctx: AppContext, writes: ConditionWrite[]): Promise<(ReportedCondition | undefined)[]> {
  const conditions: (ReportedCondition | undefined)[] = writes.map(() => undefined);
  // A phone's heartbeats of one turn go in rounds, in order; within a round each phone appears once.
  for (const round of roundsByKey(writes, (w) => w.deviceId)) {
    const shapes = groupBy(round, (i) => `${writes[i]!.columns.join(',')}|${writes[i]!.defaultSmsAppReported}`);
    await Promise.all(
      [...shapes.values()].map(async (indexes) => {
        const shape = indexes.map((i) => writes[i]!);
        const byId = await updateReportedConditions(ctx.db, shape[0]!.columns, shape[0]!.defaultSmsAppReported, shape);
        for (const i of indexes) conditions[i] = byId.get(writes[i]!.deviceId);
      }),
    );
  }
  return conditions;
}
