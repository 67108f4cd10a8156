import type { Queryable } from '../../db/pool.js';
import { messageColumns, messageJsonSql, type MessageEvent, type MessageRow, type MessageStatus } from '../message.js';
import { newIds } from '../../ids/ids.js';
import { epochMsArray, numberArray, textArray } from '../../db/array-params.js';

export interface Transition {
  id: string;
  to: MessageStatus;
  at: Date;
  source: MessageEvent['source'];
  code?: string | null;
  deviceId?: string | null;
  simSubscriptionId?: number | null;
  /** Narrower than ALLOWED_FROM when the caller knows more (e.g. only a queued message fails as device_revoked). */
  from?: readonly MessageStatus[];
  /** Only when the message is held by this device (a phone may report only on its own jobs). */
  heldBy?: string;
}

export type Changed = MessageRow & { fromStatus: MessageStatus };

/** What the hot paths (claims, status reports) need back: not the whole row. */
export interface ChangedLean {
  id: string;
  orgId: string;
  deviceId: string | null;
  status: MessageStatus;
  fromStatus: MessageStatus;
}

const RETURNING = {
  lean: `u.id, u.org_id AS "orgId", u.device_id AS "deviceId", u.status, u.from_status AS "fromStatus"`,
  whole: `u.from_status AS "fromStatus", ${messageColumns('u')}`,
};

export interface TransitionOptions {
  /**
   * Each transition's deviceId names a phone whose row is locked FOR SHARE first; transitions of
   * a revoked phone are dropped. Orders a claim with a revocation running at the same moment.
   */
  liveDevicesOnly?: boolean;
}

/**
 * One statement: the conditional update, the timeline entry of each change, and its webhook
 * event when an enabled endpoint of the organization subscribes to it. The status a message
 * leaves is kept by the UPDATE itself (previous_status = m.status, evaluated on the row version
 * it changes, also when it waited for a concurrent writer and re-checked the row): reading it
 * first under FOR UPDATE wrote a row lock to every message, then the update wrote it again. Being one statement it is
 * atomic without a transaction, and a hot path pays one round trip where it paid six (under load
 * on two cores each round trip waits for a scheduler slot, which gave the claim's Postgres write
 * a long tail when BEGIN, lock, update, timeline, subscriptions and COMMIT were separate statements).
 *
 * Unnamed (planned at every call) except on the hot pool: a generic plan made on an ordinary
 * connection while `messages` is small scans the table sequentially and hash-joins, and stays
 * cached as the table grows (the fleet then spent Postgres's CPU on sequential scans, and its rate
 * fell). See createHotDb.
 */
export function transitionStatement(shape: 'lean' | 'whole'): string {
  return `WITH t AS (
       SELECT id, allowed, to_status, to_timestamp(at_ms / 1000) AS at, code, device_id, sim, held_by, source, event_id
       FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::text[])
         AS t(id, allowed, to_status, at_ms, code, device_id, sim, held_by, source, event_id)
     ), live AS MATERIALIZED (
       SELECT d.id FROM devices d WHERE $13 AND d.id = ANY($14::text[]) AND d.revoked_at IS NULL ORDER BY d.id FOR SHARE
     ), u AS (
       UPDATE messages m SET
         previous_status = m.status,
         status = t.to_status, updated_at = t.at,
         claimed_at = CASE t.to_status WHEN 'claimed' THEN t.at WHEN 'queued' THEN NULL ELSE m.claimed_at END,
         sent_at = CASE WHEN t.to_status = 'sent' THEN t.at ELSE m.sent_at END,
         delivered_at = CASE WHEN t.to_status = 'delivered' THEN t.at ELSE m.delivered_at END,
         failed_at = CASE WHEN t.to_status = 'failed' THEN t.at ELSE m.failed_at END,
         failure_code = CASE WHEN t.to_status = 'failed' THEN t.code ELSE m.failure_code END,
         device_id = CASE WHEN t.to_status = 'queued' THEN NULL ELSE COALESCE(t.device_id, m.device_id) END,
         -- A withdrawn message forgets the SIM its phone chose; one the send named stays.
         sim_subscription_id = CASE WHEN t.to_status = 'queued' AND m.requested_device_id IS NULL THEN NULL ELSE COALESCE(t.sim, m.sim_subscription_id) END
       FROM t
       WHERE m.id = t.id AND m.status = ANY(string_to_array(t.allowed, ',')) AND (t.held_by IS NULL OR m.device_id = t.held_by)
         AND (NOT $13 OR t.device_id IN (SELECT live.id FROM live))
       RETURNING m.previous_status AS from_status, t.source AS t_source, t.code AS t_code, t.at AS t_at, t.device_id AS t_device, t.event_id, m.*
     ), timeline AS (
       INSERT INTO message_events (message_id, from_status, to_status, source, code, device_id, at)
       SELECT u.id, u.from_status, u.status, u.t_source, u.t_code, COALESCE(u.device_id, u.t_device), u.t_at FROM u
     ), published AS (
       INSERT INTO events (id, org_id, type, payload, created_at)
       SELECT u.event_id, u.org_id, 'message.' || u.status,
         jsonb_build_object('id', u.event_id, 'event', 'message.' || u.status, 'createdAt', $11::text, 'data', ${messageJsonSql('u')}),
         $12::timestamptz
       FROM u
       WHERE EXISTS (SELECT 1 FROM webhook_endpoints w
                     WHERE w.org_id = u.org_id AND w.enabled AND 'message.' || u.status = ANY(w.event_types))
       RETURNING id
     ), outboxed AS (
       INSERT INTO event_outbox (event_id) SELECT id FROM published
     )
     SELECT ${RETURNING[shape]} FROM u`;
}

const STATEMENTS = { lean: transitionStatement('lean'), whole: transitionStatement('whole') };

/**
 * Runs the transition statement for these transitions (each allowed from its `from`, else from
 * `allowedFrom` of its target status); named (prepared) in its lean shape, for the hot pool.
 */
export async function transitionMessages<R extends Changed | ChangedLean>(
  db: Queryable,
  transitions: Transition[],
  shape: 'lean' | 'whole',
  opts: TransitionOptions,
  allowedFrom: Record<MessageStatus, readonly MessageStatus[]>,
): Promise<R[]> {
  if (transitions.length === 0) return [];
  const col = <T>(f: (t: Transition) => T) => transitions.map(f);
  const now = new Date();
  const { rows } = await db.query<R>({
    ...(shape === 'lean' ? { name: 'transitions-lean' } : {}),
    text: STATEMENTS[shape],
    values: [
      textArray(col((t) => t.id)),
      textArray(col((t) => (t.from ?? allowedFrom[t.to]).join(','))),
      textArray(col((t) => t.to)),
      epochMsArray(col((t) => t.at)),
      textArray(col((t) => t.code)),
      textArray(col((t) => t.deviceId)),
      numberArray(col((t) => t.simSubscriptionId)),
      textArray(col((t) => t.heldBy)),
      textArray(col((t) => t.source)),
      textArray(newIds('event', transitions.length)),
      now.toISOString(),
      now,
      opts.liveDevicesOnly === true,
      textArray(opts.liveDevicesOnly ? [...new Set(transitions.map((t) => t.deviceId).filter((d): d is string => !!d))] : []),
    ],
  });
  return rows;
}
