import type { Queryable } from '../../db/pool.js';

export interface Redelivery {
  /** The delivery's status before. */
  status: string;
  /** 1 when it was due again, 0 when its status does not allow it. */
  changed: number;
}

/** A dead or retrying delivery of the endpoint is pending and due now; undefined when there is no such delivery. */
export async function redeliverDelivery(q: Queryable, deliveryId: string, endpointId: string): Promise<Redelivery | undefined> {
  const { rows } = await q.query<Redelivery>(
    `WITH target AS (SELECT id, status FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2),
     changed AS (
       UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = now(), leased_until = NULL
         FROM target WHERE d.id = target.id AND target.status IN ('dead', 'retrying') RETURNING d.id)
     SELECT target.status, (SELECT count(*) FROM changed)::int AS changed FROM target`,
    [deliveryId, endpointId],
  );
  return rows[0];
}
