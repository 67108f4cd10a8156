import type { MessageRow } from '../messages/message.js';
import { dispatchMeta, type DispatchFields } from './dispatch-meta.js';

/** Where a message is queued: its organization's queue, or the queue of the phone it asked for. */
type Targeted = { orgId: string; requestedDeviceId: string | null };
export const targetKey = (m: Targeted): string => `${m.orgId}\u0000${m.requestedDeviceId ?? ''}`;
/** Whether two messages go to the same queue: a send's messages all do (groupBy's runs). */
export const sameTarget = (a: Targeted, b: Targeted): boolean => a.orgId === b.orgId && a.requestedDeviceId === b.requestedDeviceId;

/** A message on its way to a dispatch queue. */
export interface DispatchEntry {
  id: string;
  orgId: string;
  requestedDeviceId: string | null;
  /** Enqueue order: the message's creation time (a scheduled one's sendAt), so a rebuilt queue keeps the original order. */
  score: number;
  /** What a phone needs to send it (dispatch-meta.ts), kept beside the queue so a claim reads no Postgres. */
  meta: string;
}

/**
 * How far ahead of its creation time a high-priority message is queued: it is claimed before
 * every normal message less than an hour older than it, and a normal message waiting longer than
 * that still goes first, so a stream of high-priority sends cannot hold normal traffic for good.
 */
export const HIGH_PRIORITY_LEAD_MS = 3_600_000;

/**
 * How far ahead a message that ignores the send windows is queued: ten years, far beyond any
 * message's life, so that outside the windows the claim script finds these below one score
 * however many other messages wait in front (they go before every other message, windows open
 * or not: the sends that may not wait for morning are one-time codes).
 */
export const IGNORE_WINDOWS_LEAD_MS = 10 * 365 * 86_400_000;

/** A queue's order: creation time, a high-priority message an hour earlier, one ignoring the send windows ten years earlier. */
export const dispatchScore = (createdAtMs: number, priority: number, ignoreSendWindows = false): number =>
  createdAtMs - (ignoreSendWindows ? IGNORE_WINDOWS_LEAD_MS : priority > 0 ? HIGH_PRIORITY_LEAD_MS : 0);

export const toDispatchEntry = (m: MessageRow, avoid: DispatchFields['avoid'] = null): DispatchEntry => ({
  id: m.id,
  orgId: m.orgId,
  requestedDeviceId: m.requestedDeviceId,
  // A scheduled message joins the queue when it is due, not when it was accepted days before.
  score: dispatchScore((m.sendAt ?? m.createdAt).getTime(), m.priority, m.ignoreSendWindows),
  meta: dispatchMeta(m.to, { ...m, expiresAt: m.expiresAt.getTime(), avoid }),
});
