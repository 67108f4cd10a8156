import type { AppContext } from '../../context/app-context.js';
import { packageVersion } from '../../package/version.js';
import { checkWebhookUrl, type ResolveHost } from '../delivery/safe-url.js';
import { postWebhook } from '../delivery/post-webhook.js';
import { signWebhookPayload } from '../delivery/signature.js';
import { webhookRequestHeaders } from '../delivery/headers.js';
import { stopPendingDeliveries } from '../sql/stop-pending-deliveries.js';
import type { DeliveryJobData, DeliveryToQueue } from '../queue.js';
import { signingSecrets, type Claim, type DeliveryWork } from './claim-deliveries.js';
import { outcomeOfAttempt, type AttemptOutcome } from './schedule.js';
import type { AttemptRecord } from './record-attempts.js';
import { endpointLanes, type EndpointLanes } from './endpoint-lanes.js';
import type { EndpointSlots } from './endpoint-slots.js';

export interface DeliverDeps {
  ctx: AppContext;
  claim(claim: Claim): Promise<DeliveryWork | null>;
  record(attempt: AttemptRecord): Promise<AttemptOutcome>;
  /** Queues deliveries again: retries at their time, works whose claim ran out when it ends. */
  requeue(deliveries: DeliveryToQueue[]): Promise<void>;
  slots: EndpointSlots;
  perEndpointConcurrency: number;
  /** The resolver of the delivery-time URL check (a short-lived cache). */
  lookup?: ResolveHost;
  /** Extra trusted CA certificates (PEM): tests give their receiver's. */
  ca?: string | string[];
}

/** What the job does next: nothing more, or run again at a time (its endpoint was busy). */
export type NextStep = { kind: 'done' } | { kind: 'later'; at: number };

/** A job may fire this much before its deliveries' nextAttemptAt (clocks of several processes). */
const EARLY_SLACK_MS = 1000;
/** Beyond the attempts ahead of a work, its claim also covers this much time. */
const LEASE_MARGIN_MS = 5000;

/** An attempt made, or not made because the claim would end before the attempt could. */
type AttemptResult = { made: true; record: AttemptRecord } | { made: false; work: DeliveryWork };

/** One HTTP attempt: the URL is checked again and the request goes to the address just checked. */
async function attempt(deps: DeliverDeps, w: DeliveryWork): Promise<AttemptResult> {
  if (Date.now() + deps.ctx.config.webhookTimeoutMs > w.leaseUntil.getTime()) return { made: false, work: w };
  const startedAt = new Date();
  const check = await checkWebhookUrl(w.url, {
    allowHosts: deps.ctx.config.webhookAllowHosts,
    privateTargets: w.privateTargets,
    plainHttp: w.plainHttp,
    lookup: deps.lookup,
  });
  const result = check.ok
    ? await postWebhook({
        url: check.url,
        address: check.address,
        family: check.family,
        body: w.body,
        headers: webhookRequestHeaders({
          signature: signWebhookPayload(w.body, signingSecrets(w), Math.floor(Date.now() / 1000)),
          eventId: w.eventId,
          eventType: w.eventType,
          version: packageVersion,
        }),
        timeoutMs: deps.ctx.config.webhookTimeoutMs,
        ca: deps.ca,
      })
    : { ok: false, statusCode: null, error: check.reason, responseExcerpt: null };
  const finishedAt = new Date();
  const outcome = outcomeOfAttempt(result.ok, w.attempts + 1, deps.ctx.config.webhookScheduleSeconds, finishedAt);
  return {
    made: true,
    record: {
      deliveryId: w.id,
      endpointId: w.endpointId,
      ok: result.ok,
      statusCode: result.statusCode,
      error: result.error,
      responseExcerpt: result.responseExcerpt,
      ...outcome,
      startedAt,
      finishedAt,
    },
  };
}

/**
 * A job's deliveries: the endpoint's lanes admit the job (or send it back for later), its due
 * deliveries are claimed, each is attempted on a lane, and each result is recorded as it comes
 * (batched with other jobs' by the caller's record). Retries are queued at their time.
 */
export function deliverer(deps: DeliverDeps): (job: DeliveryJobData) => Promise<NextStep> {
  const lanes: EndpointLanes<DeliveryWork, AttemptResult> = endpointLanes(deps.slots, deps.perEndpointConcurrency, (w) => attempt(deps, w));
  return async ({ endpointId, deliveryIds }) => {
    const run = await lanes.run(endpointId, deliveryIds.length, (rounds) => claimDue(deps, deliveryIds, rounds));
    if (!run.ok) return { kind: 'later', at: Date.now() + run.retryInMs };
    const settled = await Promise.all(run.results.map((result) => result.then((r) => settle(deps, r))));
    await deps.requeue(settled.filter((d): d is DeliveryToQueue => d !== null));
    return { kind: 'done' };
  };
}

/** Claims the job's due deliveries for long enough to wait `rounds` attempts and make its own. */
async function claimDue(deps: DeliverDeps, deliveryIds: string[], rounds: number): Promise<DeliveryWork[]> {
  const now = Date.now();
  const leaseUntil = new Date(now + (rounds + 1) * deps.ctx.config.webhookTimeoutMs + LEASE_MARGIN_MS);
  const dueBy = new Date(now + EARLY_SLACK_MS);
  const claimed = await Promise.all(deliveryIds.map((deliveryId) => deps.claim({ deliveryId, leaseUntil, dueBy })));
  const works = claimed.filter((w): w is DeliveryWork => w !== null);
  const disabled = works.filter((w) => !w.enabled);
  if (disabled.length > 0) await stopPendingDeliveries(deps.ctx.db, [disabled[0]!.endpointId], 'endpoint disabled');
  return works.filter((w) => w.enabled);
}

/** Records an attempt; returns the delivery when it must be queued again. */
async function settle(deps: DeliverDeps, result: AttemptResult): Promise<DeliveryToQueue | null> {
  if (!result.made) return { id: result.work.id, endpointId: result.work.endpointId, notBefore: result.work.leaseUntil };
  const final = await deps.record(result.record);
  deps.ctx.metrics.webhookDeliveries.inc({ outcome: final.status });
  return final.status === 'retrying' ? { id: result.record.deliveryId, endpointId: result.record.endpointId, notBefore: final.nextAttemptAt } : null;
}
