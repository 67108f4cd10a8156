import { iso } from '../schemas/schema-kit.js';
import type { WebhookEndpoint } from './schemas.js';

/** A webhook_endpoints row without its secrets: what every read of the API selects. */
export interface EndpointRow {
  id: string;
  orgId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  consecutiveFailures: number;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

// Secrets are deliberately absent: a row selected with these columns can be logged or returned.
export const ENDPOINT_COLUMNS = `id, org_id AS "orgId", url, description, event_types AS "eventTypes", enabled,
  disabled_at AS "disabledAt", disabled_reason AS "disabledReason", consecutive_failures AS "consecutiveFailures",
  last_success_at AS "lastSuccessAt", last_failure_at AS "lastFailureAt",
  previous_secret_expires_at AS "previousSecretExpiresAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

export function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    eventTypes: r.eventTypes,
    enabled: r.enabled,
    disabledAt: iso(r.disabledAt),
    disabledReason: r.disabledReason,
    consecutiveFailures: r.consecutiveFailures,
    lastSuccessAt: iso(r.lastSuccessAt),
    lastFailureAt: iso(r.lastFailureAt),
    previousSecretExpiresAt: iso(r.previousSecretExpiresAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
