import type { FleetTotals } from './fleet.js';

export interface FleetSummary extends FleetTotals {
  seconds: number;
  /** Messages settled (sent or failed) per second over the run. */
  messagesPerSecond: number;
  /** From a job reaching its phone to `sent`/`failed` acknowledged, in ms. */
  sendLatencyMs: { p50: number | null; p99: number | null };
  recentErrors: string[];
}

export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function summarize(totals: FleetTotals, seconds: number, latencies: number[], recentErrors: string[]): FleetSummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 0.5);
  const p99 = percentile(sorted, 0.99);
  return {
    ...totals,
    seconds: round(seconds),
    messagesPerSecond: round(seconds > 0 ? (totals.sent + totals.failed) / seconds : 0),
    sendLatencyMs: { p50: p50 === null ? null : round(p50), p99: p99 === null ? null : round(p99) },
    recentErrors,
  };
}

/** The live line: what an operator watches while the simulation runs. */
export function progressLine(t: FleetTotals, ratePerSecond: number, elapsedSeconds: number): string {
  return (
    `${Math.floor(elapsedSeconds)}s  phones ${t.connected}/${t.phones}  jobs ${t.jobsReceived}  sent ${t.sent}  ` +
    `delivered ${t.delivered}  failed ${t.failed}  incoming ${t.incomingSent}  errors ${t.errors}  ${round(ratePerSecond)}/s`
  );
}

export function summaryLines(s: FleetSummary): string[] {
  const latency = s.sendLatencyMs.p50 === null ? '-' : `p50 ${s.sendLatencyMs.p50} ms, p99 ${s.sendLatencyMs.p99} ms`;
  return [
    `phones: ${s.phones} (${s.connected} connected at the end${s.revoked ? `, ${s.revoked} revoked` : ''})`,
    `duration: ${s.seconds} s`,
    `jobs received: ${s.jobsReceived}`,
    `sent: ${s.sent}  delivered: ${s.delivered}  failed: ${s.failed}  withdrawn: ${s.withdrawn}  (${s.messagesPerSecond} messages/s)`,
    `send latency (job → sent): ${latency}`,
    `incoming SMS sent: ${s.incomingSent}  refused while inbound locked: ${s.incomingLocked}`,
    `reconnects: ${s.reconnects}  frames resent: ${s.resends} (after internal_error: ${s.retries})  duplicate jobs dropped: ${s.duplicateJobs}`,
    `errors: ${s.errors}`,
    ...s.recentErrors.map((e) => `  ${e}`),
  ];
}
