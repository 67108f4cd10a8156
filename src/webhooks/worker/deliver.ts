import type { AppContext } from '../../app/context.js';
import { packageVersion } from '../../version.js';
import { checkWebhookUrl } from '../delivery/safe-url.js';
import { postWebhook } from '../delivery/post-webhook.js';
import { signWebhookPayload } from '../delivery/signature.js';
import { webhookRequestHeaders } from '../delivery/headers.js';
import { stopPendingDeliveries } from '../stop-deliveries.js';
import { signingSecrets, type DeliveryWork } from './load-deliveries.js';
import { outcomeOfAttempt, type AttemptOutcome } from './schedule.js';
import type { AttemptRecord } from './record-attempts.js';
import type { EndpointGate } from './endpoint-gate.js';

export interface DeliverDeps {
  ctx: AppContext;
  load(deliveryId: string): Promise<DeliveryWork | null>;
  record(attempt: AttemptRecord): Promise<AttemptOutcome>;
  gate: EndpointGate;
  /** Extra trusted CA certificates (PEM): tests give their receiver's. */
  ca?: string | string[];
}

/** What the job does next: nothing (the row is final or gone), or run again at a time. */
export type NextStep = { kind: 'done' } | { kind: 'later'; at: number };

const DONE: NextStep = { kind: 'done' };
/** A job may fire this much before its row's nextAttemptAt (clocks of several processes). */
const EARLY_SLACK_MS = 1000;

interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** One HTTP attempt: the URL is checked again and the request goes to the address just checked. */
async function attempt(deps: DeliverDeps, w: DeliveryWork): Promise<AttemptResult> {
  const check = await checkWebhookUrl(w.url, { allowHosts: deps.ctx.config.webhookAllowHosts });
  if (!check.ok) return { ok: false, statusCode: null, error: check.reason };
  const signature = signWebhookPayload(w.body, signingSecrets(w), Math.floor(Date.now() / 1000));
  const result = await postWebhook({
    url: check.url,
    address: check.address,
    family: check.family,
    body: w.body,
    headers: webhookRequestHeaders({ signature, eventId: w.eventId, eventType: w.eventType, version: packageVersion }),
    timeoutMs: deps.ctx.config.webhookTimeoutMs,
    ca: deps.ca,
  });
  return { ok: result.ok, statusCode: result.statusCode, error: result.error };
}

export function deliverer(deps: DeliverDeps): (job: { deliveryId: string; endpointId: string }) => Promise<NextStep> {
  // The endpoint's slot is taken before anything else, so a delivery turned away costs no query.
  return async ({ deliveryId, endpointId }) => {
    const entry = await deps.gate.enter(endpointId, deliveryId);
    if (!entry.ok) return { kind: 'later', at: Date.now() + entry.retryInMs };
    try {
      return await deliverInSlot(deps, deliveryId);
    } finally {
      await deps.gate.leave(endpointId, deliveryId);
    }
  };
}

async function deliverInSlot(deps: DeliverDeps, deliveryId: string): Promise<NextStep> {
  const w = await deps.load(deliveryId);
  if (!w || w.status === 'delivered' || w.status === 'dead') return DONE;
  if (!w.enabled) {
    await stopPendingDeliveries(deps.ctx.db, [w.endpointId], 'endpoint disabled');
    return DONE;
  }
  if (w.nextAttemptAt && w.nextAttemptAt.getTime() > Date.now() + EARLY_SLACK_MS) return { kind: 'later', at: w.nextAttemptAt.getTime() };
  const startedAt = new Date();
  const result = await attempt(deps, w);
  const finishedAt = new Date();
  const outcome = outcomeOfAttempt(result.ok, w.attempts + 1, deps.ctx.config.webhookScheduleSeconds, finishedAt);
  const final = await deps.record({ deliveryId: w.id, endpointId: w.endpointId, ...result, ...outcome, startedAt, finishedAt });
  return final.status === 'retrying' && final.nextAttemptAt ? { kind: 'later', at: final.nextAttemptAt.getTime() } : DONE;
}
