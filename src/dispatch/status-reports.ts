import type { AppContext } from '../context/app-context.js';
import { applyTransitionsLean, type ChangedLean, type Transition } from '../messages/transitions.js';
import { roundsByKey } from '../batching/rounds.js';
import type { MessageStatus } from '../messages/message.js';
import type { ReportableStatus, StatusReport } from './schemas.js';
import { trustedTime, type ClockSkewWarning } from '../time/phone-clock.js';
import { selectReportedMessages } from './sql/select-reported-messages.js';
import { withdrawJobs } from './withdraw-jobs.js';
import { resendReportedFailures } from '../sending/auto-resend/after-reports.js';
import { countStatusChanges } from '../infrastructure/metrics.js';

export type ReportOutcome = { messageId: string; status: MessageStatus; duplicate?: true; warning?: ClockSkewWarning } | { messageId: string; error: { code: 'invalid_transition'; message: string } };

interface Pending {
  deviceId: string;
  report: StatusReport;
  resolve: (o: ReportOutcome) => void;
  reject: (e: unknown) => void;
}

const FROM_FOR_REPORT: Record<ReportableStatus, readonly MessageStatus[]> = {
  sending: ['claimed'],
  sent: ['sending'],
  delivered: ['sent'],
  failed: ['claimed', 'sending', 'sent'],
};
const HAPPY_RANK: Partial<Record<MessageStatus, number>> = { claimed: 1, sending: 2, sent: 3, delivered: 4 };

/** A report the message already reflects (it is at or past that status) is a harmless repeat. */
function isRepeat(current: MessageStatus, reported: ReportableStatus): boolean {
  if (current === reported) return true;
  const c = HAPPY_RANK[current];
  const r = HAPPY_RANK[reported];
  return c !== undefined && r !== undefined && c > r;
}

/**
 * Phones report progress many times a second. Reports are gathered for a few milliseconds and
 * written in one statement per round (a message reported twice in one window, e.g. sending then
 * sent, moves once per round, in order). A message always goes to the same lane and each lane
 * writes one batch at a time, so its reports apply in order; the lanes write in parallel. Two
 * lanes, not four: fewer, larger statements left Postgres more room for claims (the fleet's
 * figures: bench/README.md, "Measurements behind the code").
 */
export class StatusReportWriter {
  private readonly lanes: ReportLane[];

  constructor(ctx: AppContext, opts: { maxBatch?: number; maxDelayMs?: number; lanes?: number } = {}) {
    this.lanes = Array.from({ length: opts.lanes ?? 2 }, () => new ReportLane(ctx, opts));
  }

  submit(deviceId: string, report: StatusReport): Promise<ReportOutcome> {
    const id = report.messageId;
    let h = 0;
    for (let i = id.length - 4; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) | 0;
    return this.lanes[Math.abs(h) % this.lanes.length]!.submit(deviceId, report);
  }

  async flush(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.flush()));
  }
}

/**
 * A lane's own batching rather than a TickBatcher: it waits a timed window (maxDelayMs), not the
 * rest of the turn, so a phone's `sending` and `sent` sent a moment apart share a statement; and
 * it writes its whole backlog in one batch, never two at once, so reports apply in arrival order.
 */
class ReportLane {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly opts: { maxBatch?: number; maxDelayMs?: number } = {},
  ) {}

  submit(deviceId: string, report: StatusReport): Promise<ReportOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ deviceId, report, resolve, reject });
      if (this.pending.length >= (this.opts.maxBatch ?? 500)) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.opts.maxDelayMs ?? 2);
    });
  }

  /**
   * One write at a time: were two batches written at once, a phone's `sent` could commit before
   * its `sending` and be refused as invalid_transition. Reports arriving meanwhile wait for the
   * next batch.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const run = this.writing.then(() => this.writeBatch());
    this.writing = run.catch(() => {});
    return run;
  }

  private async writeBatch(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      const outcomes = await writeReports(
        this.ctx,
        batch.map((p) => ({ deviceId: p.deviceId, report: p.report })),
      );
      batch.forEach((p, i) => p.resolve(outcomes[i]!));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}

/**
 * Android refused a send for going too fast (`limit_exceeded`): past 30 parts a minute it holds
 * the app's sends behind a prompt nobody answers on an unattended phone. The phone takes no new
 * job for HAFATRA_LIMIT_COOLDOWN_SECONDS (the claim script reads `coolUntil`), and the jobs it
 * holds without having acknowledged `sending` go to the others meanwhile.
 */
async function coolDownAfterLimit(ctx: AppContext, changed: ChangedLean[], transitions: Transition[]): Promise<void> {
  const limited = new Set(transitions.filter((t) => t.to === 'failed' && t.code === 'limit_exceeded').map((t) => t.id));
  const phones = new Map<string, string>();
  for (const m of changed) if (limited.has(m.id) && m.deviceId) phones.set(m.deviceId, m.orgId);
  if (phones.size === 0) return;
  const until = ctx.clock.now() + ctx.config.limitCooldownSeconds * 1000;
  const write = ctx.redis.multi();
  for (const [deviceId, orgId] of phones) write.hset(ctx.keys.org(orgId).deviceState(deviceId), 'coolUntil', until);
  await write.exec();
  ctx.log.warn({ devices: [...phones.keys()], until: new Date(until).toISOString() }, "phone hit Android's SMS limit: cooling down");
  for (const deviceId of phones.keys()) await withdrawJobs(ctx, deviceId, null, 'phone_limited', until);
}

export async function writeReports(ctx: AppContext, items: { deviceId: string; report: StatusReport }[]): Promise<ReportOutcome[]> {
  ctx.metrics.reportBatchSize.observe(items.length);
  const times = items.map((it) => trustedTime(it.report.at));
  // Each round is one statement, atomic by itself: should the process die between two rounds,
  // the later reports are not acked and the phone sends them again.
  const applied = new Set<number>();
  for (const round of roundsByKey(items, (it) => it.report.messageId)) {
    const transitions: Transition[] = round.map((i) => {
      const { report, deviceId } = items[i]!;
      return {
        id: report.messageId,
        to: report.status,
        at: times[i]!.at,
        source: 'device',
        deviceId,
        heldBy: deviceId,
        from: FROM_FOR_REPORT[report.status],
        code: report.status === 'failed' ? (report.failureCode ?? 'generic_failure') : null,
      };
    });
    const changedRows = await applyTransitionsLean(ctx.hotDb, ctx.changes, transitions);
    countStatusChanges(ctx.metrics, changedRows);
    await coolDownAfterLimit(ctx, changedRows, transitions);
    resendReportedFailures(ctx, changedRows);
    const changed = new Set(changedRows.map((m) => m.id));
    for (const i of round) if (changed.has(items[i]!.report.messageId)) applied.add(i);
  }

  const rest = items.map((it, i) => (applied.has(i) ? null : it.report.messageId)).filter((id): id is string => id !== null);
  const current = new Map<string, { status: MessageStatus; deviceId: string | null }>();
  if (rest.length > 0) {
    for (const r of await selectReportedMessages(ctx.db, rest)) current.set(r.id, { status: r.status, deviceId: r.deviceId });
  }

  return items.map((it, i): ReportOutcome => {
    const { messageId, status } = it.report;
    const warning = times[i]!.warning;
    if (applied.has(i)) return { messageId, status, ...(warning ? { warning } : {}) };
    const now = current.get(messageId);
    if (!now || now.deviceId !== it.deviceId) {
      return { messageId, error: { code: 'invalid_transition', message: `message ${messageId} is not a job of this phone` } };
    }
    if (isRepeat(now.status, status)) return { messageId, status: now.status, duplicate: true };
    return { messageId, error: { code: 'invalid_transition', message: `message is ${now.status}; it cannot become ${status}` } };
  });
}
