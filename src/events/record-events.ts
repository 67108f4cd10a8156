import type { Queryable } from '../db/pool.js';
import type { NewEvent } from './event-types.js';
import { insertEvents } from './sql/insert-events.js';
import { subscribedTypes } from './sql/select-subscribed-types.js';

export { EVENT_TYPES, type EventType, type NewEvent } from './event-types.js';

/**
 * The event outbox: called inside the transaction that makes the change, so an event exists if
 * and only if its change committed. Events nobody subscribed to are not written: an endpoint
 * receives only events that happened after it was created, so they could never be delivered.
 * `subscribed`, read by the caller before its transaction (a send reads it beside its other
 * reads), saves the transaction a round trip: an endpoint made meanwhile misses these events, as
 * one made between the read in the transaction and its commit would.
 */
export async function recordEvents(tx: Queryable, orgId: string, events: NewEvent[], subscribed?: ReadonlySet<string>): Promise<number> {
  if (events.length === 0) return 0;
  const wanted = subscribed ?? (await subscribedTypes(tx, orgId));
  return insertEvents(
    tx,
    orgId,
    events.filter((e) => wanted.has(e.type)),
  );
}
