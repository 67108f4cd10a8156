import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, NullableDateTime, Text } from '../schemas/schema-kit.js';
import { PageQuery } from '../http/pagination.js';
import { EVENT_TYPES } from '../events/record-events.js';
import { MAX_WEBHOOK_URL_LENGTH } from './delivery/safe-url.js';

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** Deliveries in these statuses may still be attempted (the predicate of webhook_deliveries_due). */
export const UNFINISHED_DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'retrying'];

/** An organization may register this many endpoints; the next one is 409 conflict. */
export const MAX_ENDPOINTS_PER_ORG = 20;

const Url = Text({ minLength: 1, maxLength: MAX_WEBHOOK_URL_LENGTH, errorMessage: `must be an https URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters` });
const EventTypeList = Type.Array(Type.Union(EVENT_TYPES.map((t) => Type.Literal(t))), {
  minItems: 1,
  maxItems: EVENT_TYPES.length * 4,
  errorMessage: `must be a non-empty array of event types (${EVENT_TYPES.join(', ')})`,
});
const DescriptionField = Type.Union([Text({ maxLength: 256 }), Type.Null()], {
  errorMessage: 'must be a string of at most 256 characters, or null',
});

export const CreateWebhookEndpointBody = Type.Object({ url: Url, description: Type.Optional(DescriptionField), eventTypes: EventTypeList }, { additionalProperties: false });
export type CreateWebhookEndpointBody = Static<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(DescriptionField),
    eventTypes: Type.Optional(EventTypeList),
    enabled: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
  },
  { additionalProperties: false },
);
export type UpdateWebhookEndpointBody = Static<typeof UpdateWebhookEndpointBody>;

export const WebhookEndpointSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: Nullable(Type.String()),
  eventTypes: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledAt: NullableDateTime,
  disabledReason: Nullable(Type.String()),
  consecutiveFailures: Type.Integer(),
  lastSuccessAt: NullableDateTime,
  lastFailureAt: NullableDateTime,
  previousSecretExpiresAt: NullableDateTime,
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const EndpointWithSecretSchema = Type.Object({ endpoint: WebhookEndpointSchema, secret: Type.String() });
export const EndpointListSchema = Type.Object({ endpoints: Type.Array(WebhookEndpointSchema), eventTypes: Type.Array(Type.String()) });

export const WebhookDeliverySchema = Type.Object({
  id: Type.String(),
  endpointId: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  status: Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s))),
  attempts: Type.Integer(),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  lastAttemptAt: NullableDateTime,
  nextAttemptAt: NullableDateTime,
  deliveredAt: NullableDateTime,
  createdAt: DateTime,
});
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

export const DeliveryPageQuery = Type.Object({ ...PageQuery });
export const DeliveryPageSchema = Type.Object({ deliveries: Type.Array(WebhookDeliverySchema), nextCursor: Nullable(Type.String()) });
