import type { Queryable } from '../../db/pool.js';
import type { Provider } from '../reading/index.js';

export interface StuckAi {
  eventId: string;
  provider: Provider;
  body: string | null;
}

/** Records left `pending` for their AI reader longer than stuckMs (the process died during the call). */
export async function selectStuckAi(db: Queryable, stuckMs: number): Promise<StuckAi[]> {
  const { rows } = await db.query<StuckAi>(
    `SELECT e.id AS "eventId", e.provider, i.body FROM mobile_money_events e JOIN incoming_messages i ON i.id = e.incoming_message_id
     WHERE e.ai_status = 'pending' AND e.updated_at < now() - make_interval(secs => $1::double precision / 1000)
     ORDER BY e.id LIMIT 50`,
    [stuckMs],
  );
  return rows;
}
