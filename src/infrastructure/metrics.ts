import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { withinTimeout } from './within-timeout.js';
import { RequestTallies } from './request-tallies.js';

/**
 * This process's Prometheus instruments, on a registry of its own (not prom-client's global one:
 * a test process opens several contexts, each with its own registry, and names never collide).
 * Counters and histograms are plain in-memory increments: the hot paths never wait on them.
 */
export interface Metrics {
  registry: Registry;
  /** hafatra_http_requests_total and hafatra_http_request_duration_seconds. */
  requests: RequestTallies;
  messagesAccepted: Counter;
  statusChanges: Counter<'status'>;
  claimBatchSize: Histogram;
  reportBatchSize: Histogram;
  webhookDeliveries: Counter<'outcome'>;
  passwordChecks: Counter<'outcome'>;
  limitedRequests: Counter<'limit'>;
  pacedRefusals: Counter<'pace'>;
  backgroundRuns: Counter<'job' | 'outcome'>;
  backgroundDuration: Histogram<'job'>;
  /** Read at scrape time: set by the parts that hold the state (the socket server holds the phones, the webhook workers their queue). */
  sources: { phones?: () => number; webhookBacklog?: () => Promise<Record<string, number>> };
  /** Starts prom-client's process metrics (see attachMetrics): once, and only where they are scraped. */
  withProcessMetrics(): void;
}

/** Batch sizes: one message up to the claim writer's 64 writes of several messages each. */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/** Seconds: most API answers take a few milliseconds; the tail up to 10 s is what an alert watches. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(): Metrics {
  const registry = new Registry();
  const on = { registers: [registry] };
  const sources: Metrics['sources'] = {};
  let processMetrics = false;
  new Gauge({
    ...on,
    name: 'hafatra_phones_connected',
    help: 'Phone sockets open on this process, SMS Gateway for Android event streams included.',
    collect() {
      this.set(sources.phones?.() ?? 0);
    },
  });
  new Gauge({
    ...on,
    name: 'hafatra_webhook_backlog',
    help: 'Webhook delivery jobs in BullMQ by state (waiting, delayed, active, prioritized), read at scrape time in a process running the webhook workers; each job holds up to 50 deliveries of one endpoint.',
    labelNames: ['state'],
    async collect() {
      const read = sources.webhookBacklog;
      if (!read) return;
      const counts = await withinTimeout(read);
      if (counts) for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
    },
  });
  return {
    registry,
    sources,
    withProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      // Process CPU, memory, handles, GC and nodejs_eventloop_lag_seconds (with its percentiles).
      // Started only by a process that serves /metrics: the event-loop monitor and GC observer it
      // starts run for the life of the process, a cost the CLI and test contexts need not pay.
      collectDefaultMetrics({ register: registry });
    },
    requests: new RequestTallies(registry, LATENCY_BUCKETS),
    messagesAccepted: new Counter({ ...on, name: 'hafatra_messages_accepted_total', help: 'Messages stored by an accepted send request (202).' }),
    statusChanges: new Counter({ ...on, name: 'hafatra_message_status_changes_total', help: 'Message status changes made by this process, by the new status.', labelNames: ['status'] }),
    claimBatchSize: new Histogram({ ...on, name: 'hafatra_claim_batch_size', help: 'Messages asked for in one claim statement (the claims of one event-loop turn).', buckets: BATCH_BUCKETS }),
    webhookDeliveries: new Counter({ ...on, name: 'hafatra_webhook_deliveries_total', help: 'Webhook delivery attempts recorded, by outcome (delivered, retrying, dead).', labelNames: ['outcome'] }),
    limitedRequests: new Counter({
      ...on,
      name: 'hafatra_limited_requests_total',
      help: 'Requests and phone frames refused by a fairness limit, by limit: anonymous (per address, before authentication), organization and device (bulkheads), phone_frames (a socket past its frame budget).',
      labelNames: ['limit'],
    }),
    pacedRefusals: new Counter({
      ...on,
      name: 'hafatra_paced_refusals_total',
      help: 'Refusals (429) of a client past its grace of refusals, by how they were answered: held (answered after a delay) or closed (its connection closed unanswered: too many refusals held already).',
      labelNames: ['pace'],
    }),
    passwordChecks: new Counter({
      ...on,
      name: 'hafatra_password_checks_total',
      help: 'Password checks (sign-in, password change), by outcome: right, wrong, limited (refused before hashing), busy (too many hashes at once).',
      labelNames: ['outcome'],
    }),
    reportBatchSize: new Histogram({ ...on, name: 'hafatra_report_batch_size', help: 'Status reports written in one batch.', buckets: BATCH_BUCKETS }),
    backgroundRuns: new Counter({
      ...on,
      name: 'hafatra_background_runs_total',
      help: 'Runs of a background job (sweeps, recoveries), by job and outcome (ok, error).',
      labelNames: ['job', 'outcome'],
    }),
    backgroundDuration: new Histogram({
      ...on,
      name: 'hafatra_background_run_duration_seconds',
      help: 'Time one run of a background job took, by job.',
      labelNames: ['job'],
      buckets: LATENCY_BUCKETS,
    }),
  };
}

/** Counts changed rows by their new status (the rows `applyTransitions*` return). */
export function countStatusChanges(metrics: Metrics, changed: readonly { status: string }[]): void {
  if (changed.length === 0) return;
  if (changed.length === 1) {
    metrics.statusChanges.inc({ status: changed[0]!.status });
    return;
  }
  const byStatus = new Map<string, number>();
  for (const m of changed) byStatus.set(m.status, (byStatus.get(m.status) ?? 0) + 1);
  for (const [status, n] of byStatus) metrics.statusChanges.inc({ status }, n);
}
