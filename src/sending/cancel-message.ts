import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { applyTransitions } from '../messages/transitions.js';
import { selectMessage } from '../messages/sql/select-message.js';
import { toMessage } from '../messages/message.js';
import { countStatusChanges } from '../infrastructure/metrics.js';

/**
 * Withdraws a message no phone has claimed. Postgres decides (a claim racing the cancel loses or
 * wins there); the queue entry is removed afterwards, and a phone that popped it meanwhile is
 * refused when its claim is written.
 */
export async function cancelMessage(ctx: AppContext, orgId: string, id: string, source: 'api' | 'member' = 'api') {
  const existing = await selectMessage(ctx.db, orgId, id);
  if (!existing) throw errors.notFound('message');
  const [changed] = await applyTransitions(ctx.db, ctx.changes, [{ id, to: 'cancelled', at: new Date(), source }]);
  if (!changed) {
    const current = await selectMessage(ctx.db, orgId, id);
    throw errors.invalidTransition(`message is ${current?.status ?? existing.status}; only a message no phone has claimed can be cancelled`);
  }
  countStatusChanges(ctx.metrics, [changed]);
  await ctx.dispatch.remove(orgId, [{ id, requestedDeviceId: changed.requestedDeviceId }]);
  return toMessage(changed);
}
