import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { claimJobs, type ClaimResult } from './claim.js';
import { claimWriter, type ClaimWriter } from './claim-writer.js';
import { dispatchBatch } from './dispatch-batch.js';
import { removeFromQueues } from './enqueue.js';
import type { DispatchEntry } from './entries.js';
import { rebuildQueuesIfLost, reconcileBatches } from './rebuild.js';
import { returnToQueues } from './return-to-queues.js';
import { requeue } from './requeue.js';
import { WorkSignals } from './work-signals.js';
import type { ChangeSink } from '../messages/detail-cache/message-changes.js';

/**
 * The Redis dispatch queues, in one place: what goes on them (a send's batch, a rebuild), what
 * leaves them (a phone's claim, a cancellation, an expiry), what goes back (an interrupted
 * claim, a withdrawn job), and the work signals that wake phones. One per process (app/runtime.ts makes it): it holds
 * the process's claim batcher and the phones its socket server holds. Postgres decides who gets
 * a message; these queues only say what is waiting, so they can always be rebuilt.
 */
export class DispatchQueue {
  readonly signals: WorkSignals;
  private readonly claims: ClaimWriter;

  /** `changes`: where the claims' status changes are told (the caches of message bodies). */
  constructor(
    private readonly ctx: Infrastructure,
    changes: ChangeSink,
  ) {
    this.signals = new WorkSignals(ctx);
    this.claims = claimWriter(ctx, changes);
  }

  /** A committed batch's messages onto the queues; the batch marked dispatched; phones woken. */
  dispatchBatch(batchIds: string[], entries: DispatchEntry[]): Promise<void> {
    return dispatchBatch(this.ctx, this.signals, batchIds, entries);
  }

  /** Up to `max` jobs for a phone, claimed in Redis and recorded in Postgres. */
  claim(device: { orgId: string; deviceId: string }, max: number): Promise<ClaimResult> {
    return claimJobs(this.ctx, this.claims, device, max);
  }

  /** Ends claims Postgres never recorded: still-queued messages go back. Returns how many. */
  returnToQueues(orgId: string, ids: string[]): Promise<number> {
    return returnToQueues(this.ctx, orgId, ids);
  }

  /** Claimed messages back on their queues once `decide` moved them in Postgres (a withdrawal). */
  requeue(orgId: string, entries: DispatchEntry[], decide: () => Promise<Set<string>>): Promise<string[]> {
    return requeue(this.ctx, this.signals, orgId, entries, decide);
  }

  /** Messages that will never be sent (cancelled, expired, failed) leave the queues. */
  remove(orgId: string, items: { id: string; requestedDeviceId: string | null }[]): Promise<void> {
    return removeFromQueues(this.ctx, orgId, items);
  }

  /** The queues again from Postgres, when Redis lost them. Returns how many were queued. */
  rebuildIfLost(): Promise<number> {
    return rebuildQueuesIfLost(this.ctx, this.signals);
  }

  /** Batches committed but never queued (their API process died in between). */
  reconcileBatches(): Promise<number> {
    return reconcileBatches(this.ctx, this.signals);
  }

  /** Wakes the phones that may take these messages, on every API process. */
  signalWork(messages: { orgId: string; requestedDeviceId: string | null }[]): Promise<void> {
    return this.signals.signal(messages);
  }
}
