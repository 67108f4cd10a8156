import { Type, type Static } from '@sinclair/typebox';
import { PathId, Int } from '../schemas/schema-kit.js';
import { PhoneDateTime } from '../time/phone-time.js';

export const REPORTABLE = ['sending', 'sent', 'delivered', 'failed'] as const;
export type ReportableStatus = (typeof REPORTABLE)[number];

export const StatusReport = Type.Object(
  {
    messageId: PathId,
    status: Type.Union(
      REPORTABLE.map((s) => Type.Literal(s)),
      { errorMessage: `must be one of ${REPORTABLE.join(', ')}` },
    ),
    failureCode: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9_]+$', errorMessage: 'must be a lower_snake_case code of at most 64 characters' })),
    at: Type.Optional(PhoneDateTime),
  },
  { additionalProperties: false },
);
export type StatusReport = Static<typeof StatusReport>;

export const StatusReportsBody = Type.Object({ reports: Type.Array(StatusReport, { minItems: 1, maxItems: 500 }) }, { additionalProperties: false });

export const ClaimBody = Type.Object({ max: Type.Optional(Int('integer', { minimum: 1, maximum: 100 })) }, { additionalProperties: false });
