import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, NullableDateTime } from '../schemas/schema-kit.js';
import { PageQuery } from '../http/pagination.js';

export const CLASSIFICATIONS = ['matched', 'ambiguous', 'unknown'] as const;
const literals = <const T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const MobileMoneyEventSchema = Type.Object({
  id: Type.String(),
  incomingMessageId: Type.String(),
  provider: literals(['provider_a', 'provider_b', 'provider_c']),
  classification: literals(CLASSIFICATIONS),
  parsingStatus: literals(['parsed', 'partial', 'failed']),
  verification: Type.Literal('unverified'),
  direction: Nullable(literals(['incoming', 'outgoing'])),
  amountMinor: Nullable(Type.Integer()),
  currency: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  counterpartyName: Nullable(Type.String()),
  counterpartyPhoneMasked: Nullable(Type.String()),
  providerTimestamp: Nullable(Type.String()),
  balanceMinor: Nullable(Type.Integer()),
  feesMinor: Nullable(Type.Integer()),
  parserVersion: Type.String(),
  parserConfidence: Nullable(Type.Number()),
  ai: Type.Object({
    status: literals(['not_needed', 'pending', 'not_consented', 'ai_unavailable', 'completed', 'failed']),
    provider: Nullable(Type.String()),
    model: Nullable(Type.String()),
    confidence: Nullable(Type.Number()),
  }),
  review: Type.Object({ status: literals(['none', 'reviewed']), note: Nullable(Type.String()), reviewedAt: NullableDateTime }),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type MobileMoneyEvent = Static<typeof MobileMoneyEventSchema>;

export const ListMobileMoneyQuery = Type.Object({
  classification: Type.Optional(
    Type.Union(
      CLASSIFICATIONS.map((c) => Type.Literal(c)),
      { errorMessage: `must be one of ${CLASSIFICATIONS.join(', ')}` },
    ),
  ),
  ...PageQuery,
});
export const MobileMoneyPageSchema = Type.Object({ events: Type.Array(MobileMoneyEventSchema), nextCursor: Nullable(Type.String()) });
