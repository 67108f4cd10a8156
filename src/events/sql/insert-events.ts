import type { Queryable } from '../../db/pool.js';
import { newIds } from '../../ids/ids.js';
import type { NewEvent } from '../event-types.js';

/** Writes events already filtered by subscribedTypes, each in the relay's outbox. */
export async function insertEvents(tx: Queryable, orgId: string, kept: NewEvent[]): Promise<number> {
  if (kept.length === 0) return 0;
  const ids = newIds('event', kept.length);
  const now = new Date();
  await tx.query(
    `WITH outbox AS (INSERT INTO event_outbox (event_id) SELECT unnest($1::text[]))
     INSERT INTO events (id, org_id, type, payload, created_at)
     SELECT id, $2, type, jsonb_build_object('id', id, 'event', type, 'createdAt', $5::text, 'data', data), $4
     FROM unnest($1::text[], $3::text[], $6::jsonb[]) AS t(id, type, data)`,
    [ids, orgId, kept.map((e) => e.type), now, now.toISOString(), kept.map((e) => JSON.stringify(e.data()))],
  );
  return kept.length;
}
