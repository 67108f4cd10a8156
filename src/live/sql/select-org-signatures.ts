import type { Queryable } from '../../db/pool.js';

/**
 * Per organization, one value per live topic that changes whenever what that topic shows
 * changes: the newest tally delta (every status change appends one, migration 022), the phones'
 * latest change or sighting, the webhook endpoints' latest change or attempt, the newest received
 * SMS and mobile-money record (a record is read after its SMS arrived, so both count). One
 * statement for all the organizations watched; each part one step down an (org_id, …) index.
 */
export async function orgSignatures(db: Queryable, orgIds: string[]): Promise<Map<string, Record<string, string>>> {
  const { rows } = await db.query<{ id: string; messages: string; device: string; webhooks: string; received: string }>(
    `SELECT o.id,
       (SELECT coalesce(max(d.id), 0) FROM message_tally_deltas d WHERE d.org_id = o.id)::text
         || ':' || (SELECT coalesce(sum(t.count), 0) FROM message_tallies t WHERE t.org_id = o.id AND t.hour >= now() - interval '1 day')::text AS messages,
       (SELECT count(*) || ':' || coalesce(max(greatest(updated_at, last_seen_at, socket_changed_at)), 'epoch')
          FROM devices WHERE org_id = o.id) AS device,
       (SELECT count(*) || ':' || coalesce(max(greatest(updated_at, last_success_at, last_failure_at)), 'epoch')
          FROM webhook_endpoints WHERE org_id = o.id) AS webhooks,
       coalesce((SELECT max(i.id) FROM incoming_messages i WHERE i.org_id = o.id), '')
         || ':' || coalesce((SELECT max(r.id) FROM mobile_money_events r WHERE r.org_id = o.id), '') AS received
     FROM unnest($1::text[]) AS o(id)`,
    [orgIds],
  );
  return new Map(rows.map((r) => [r.id, { messages: r.messages, device: r.device, webhooks: r.webhooks, received: r.received }]));
}
