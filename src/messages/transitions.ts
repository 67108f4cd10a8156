import type { HotDb, Queryable } from '../db/pool.js';
import type { MessageStatus } from './message.js';
import type { ChangeSink } from './detail-cache/message-changes.js';
import { transitionMessages, type Changed, type ChangedLean, type TransitionOptions, type Transition } from './sql/transition-messages.js';

export type { Changed, ChangedLean, Transition, TransitionOptions } from './sql/transition-messages.js';

/**
 * The message lifecycle, in one place. A status may only be entered from the statuses listed
 * here; every change is one conditional UPDATE, so two racing writers (a phone report and a
 * sweep, two phones) cannot both move a message: the loser's change simply matches no row.
 */
export const ALLOWED_FROM: Record<MessageStatus, readonly MessageStatus[]> = {
  // Only a scheduled send is written `accepted` (src/scheduling/); every other send is written `queued`.
  accepted: [],
  // A scheduled message due (src/sending/move-due.ts); a claim withdrawn before the phone
  // acknowledged `sending` (dispatch/withdraw-jobs.ts).
  queued: ['accepted', 'claimed'],
  claimed: ['queued'],
  sending: ['claimed'],
  sent: ['sending'],
  delivered: ['sent'],
  failed: ['queued', 'claimed', 'sending', 'sent'],
  // A scheduled message can no longer be sent in time when it is due (its mover was down past its expiry).
  expired: ['queued', 'accepted'],
  cancelled: ['queued', 'accepted'],
  unknown: ['claimed', 'sending'],
};

/**
 * Applies the transitions and returns the changed messages whole (for callers that show them).
 * The changed ids go to `changes` (the caches of message bodies): a caller in a transaction gives
 * a sink that tells them once it commits.
 */
export async function applyTransitions(db: Queryable, changes: ChangeSink, transitions: Transition[], opts: TransitionOptions = {}): Promise<Changed[]> {
  return told(changes, await transitionMessages<Changed>(db, transitions, 'whole', opts, ALLOWED_FROM));
}

/**
 * The same, returning only what the hot paths (claims, status reports) need, as a prepared
 * statement on the hot pool: planning the statement at every call was a measurable share of
 * Postgres's time in a fleet run, and the hot pool's connections keep its generic plan on indexes.
 */
export async function applyTransitionsLean(hot: HotDb, changes: ChangeSink, transitions: Transition[], opts: TransitionOptions = {}): Promise<ChangedLean[]> {
  return told(changes, await transitionMessages<ChangedLean>(hot, transitions, 'lean', opts, ALLOWED_FROM));
}

function told<R extends { id: string }>(changes: ChangeSink, rows: R[]): R[] {
  if (rows.length > 0) changes.changed(rows.map((r) => r.id));
  return rows;
}
