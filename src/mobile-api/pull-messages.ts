import type { AppContext } from '../context/app-context.js';
import { MAX_CLAIM } from '../dispatch-queue/claim.js';
import { notePulled, pushAppEvent } from '../devices/app-events.js';
import { toAppMessage, type AppMessage } from './app-message.js';
import { appUnauthorized, type AppDevice } from './authenticate-app.js';
import { selectHeldMessages, type HeldMessage } from './sql/select-held-messages.js';

/** The most jobs one pull lists (the reference server's page): held ones first, then new claims. */
export const PULL_WINDOW = MAX_CLAIM;
/** A full pull may leave work queued: the phone is woken to pull again this much later. */
const FULL_PULL_NUDGE_MS = 10_000;

/**
 * `GET /message`: the jobs this phone holds and has not reported (handed out again: an answer
 * lost on the way must not lose the job, and the app ignores ids it knows, re-reporting them),
 * then new ones, claimed through the same claim as native phones (ctx.dispatch.claim: pacing,
 * SIM caps and carrier-aware SIM choice, send windows, priority, resting, cool-down). A job
 * claimed here is this phone's until it reports or confirms a cancel: no other phone is handed
 * it. When pacing or the windows hold work back, the phone is woken when they reopen (it pulls
 * only when told, or every 15 minutes).
 */
export async function pullMessages(ctx: AppContext, device: AppDevice, order: 'lifo' | 'fifo'): Promise<AppMessage[]> {
  // Before the claim: work queued from now on wakes the phone again.
  await notePulled(ctx, device);
  const held = await selectHeldMessages(ctx.db, device.deviceId, null, PULL_WINDOW);
  const room = PULL_WINDOW - held.length;
  let fresh: HeldMessage[] = [];
  if (room > 0) {
    const result = await ctx.dispatch.claim(device, room);
    if (result.refused === 'revoked') throw appUnauthorized();
    const target = { orgId: device.orgId, deviceId: device.deviceId };
    if (result.retryAfterMs > 0) await pushAppEvent(ctx, target, { event: 'MessageEnqueued' }, { delayMs: result.retryAfterMs + 50 });
    else if (result.jobs.length === room) await pushAppEvent(ctx, target, { event: 'MessageEnqueued' }, { delayMs: FULL_PULL_NUDGE_MS });
    if (result.jobs.length > 0) {
      fresh = await selectHeldMessages(
        ctx.db,
        device.deviceId,
        result.jobs.map((j) => j.messageId),
        result.jobs.length,
      );
    }
  }
  // Apps before 1.67.0 ignore `state` and would send a job asked back: they never see one.
  const listed = [...held, ...fresh].filter((m) => device.confirmsCancellation || !m.cancelling);
  const sign = order === 'fifo' ? 1 : -1;
  listed.sort((a, b) => b.priority - a.priority || sign * (a.createdAt.getTime() - b.createdAt.getTime()) || (a.id < b.id ? -sign : sign));
  return listed.map((m) => toAppMessage(m, device.confirmsCancellation));
}
