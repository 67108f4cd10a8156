import type { HotClient, HotDb } from '../../db/pool.js';
import { epochMsArray, textArray } from '../../db/array-params.js';
import { UNFINISHED_DELIVERY_STATUSES } from '../schemas.js';

/** Everything one attempt needs, claimed in one query for a whole batch of deliveries. */
export interface DeliveryWork {
  id: string;
  endpointId: string;
  attempts: number;
  eventId: string;
  eventType: string;
  /** The stored payload as text: exactly the bytes signed and sent. */
  body: string;
  url: string;
  enabled: boolean;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** The organization's private targets and plain-HTTP choice, read with the claim: a change applies to the next attempt. */
  privateTargets: string[];
  plainHttp: boolean;
  /** The claim holds until then: an attempt that could not end before it is not made. */
  leaseUntil: Date;
}

export interface Claim {
  deliveryId: string;
  /** Until when the claim holds. */
  leaseUntil: Date;
  /** Only deliveries due by this time are claimed (absorbs small clock differences between processes). */
  dueBy: Date;
}

/**
 * The claimable statuses are a parameter: written in the text, they matched the partial index
 * webhook_deliveries_due, and a plan could read every pending delivery from it and join, rather
 * than look each claimed one up by id. Exported for the plan test (test/webhooks/claim.test.ts).
 */
export const CLAIM_STATEMENT = `WITH claimed AS (
    UPDATE webhook_deliveries d SET leased_until = c.lease_until
    FROM (SELECT id, to_timestamp(lease_ms / 1000) AS lease_until, to_timestamp(due_ms / 1000) AS due_by
          FROM unnest($1::text[], $2::float8[], $3::float8[]) AS r(id, lease_ms, due_ms)) c
    WHERE d.id = c.id AND d.status = ANY($4::text[])
      AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= c.due_by) AND (d.leased_until IS NULL OR d.leased_until <= c.due_by)
    RETURNING d.id, d.endpoint_id, d.attempts, d.event_id, d.event_type, d.leased_until
  )
  SELECT c.id, c.endpoint_id AS "endpointId", c.attempts, c.event_id AS "eventId", c.event_type AS "eventType",
    e.payload::text AS body, c.leased_until AS "leaseUntil",
    w.url, w.enabled, w.secret, w.previous_secret AS "previousSecret", w.previous_secret_expires_at AS "previousSecretExpiresAt",
    o.webhook_private_targets AS "privateTargets", o.webhook_plain_http AS "plainHttp"
  FROM claimed c
  JOIN webhook_endpoints w ON w.id = c.endpoint_id
  JOIN organizations o ON o.id = w.org_id
  JOIN events e ON e.id = c.event_id`;

/** The claim statement, prepared, on the hot pool: the deliveries it claimed (those not claimed are absent). */
export async function claimDeliveryRows(hot: HotDb | HotClient, claims: Claim[]): Promise<DeliveryWork[]> {
  const { rows } = await hot.query<DeliveryWork>({
    name: 'webhook-claim',
    text: CLAIM_STATEMENT,
    values: [textArray(claims.map((c) => c.deliveryId)), epochMsArray(claims.map((c) => c.leaseUntil)), epochMsArray(claims.map((c) => c.dueBy)), UNFINISHED_DELIVERY_STATUSES],
  });
  return rows;
}
