import type { HotClient } from '../../db/pool.js';

/** Endpoints failing without a success for disableAfterSeconds are disabled (reason "failing"). */
export async function disableFailingEndpoints(tx: HotClient, endpointIds: string[], disableAfterSeconds: number, now: Date): Promise<Set<string>> {
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE webhook_endpoints SET enabled = false, disabled_at = $3, disabled_reason = 'failing', updated_at = $3
     WHERE id = ANY($1::text[]) AND enabled AND failing_since IS NOT NULL AND failing_since <= $3::timestamptz - $2 * interval '1 second'
     RETURNING id`,
    [endpointIds, disableAfterSeconds, now],
  );
  return new Set(rows.map((r) => r.id));
}
