import { Type } from '@sinclair/typebox';
import { Text } from '../schemas/schema-kit.js';

/** The query of GET /dashboard/v1/audit (routes.ts). */
export const AuditQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    before: Type.Optional(Text({ maxLength: 200 })),
    /** One action (`webhook.created`), or a family of them ending in a dot (`webhook.`). */
    action: Type.Optional(Text({ maxLength: 64, pattern: '^[a-z_]+(\\.[a-z_]*)?$', errorMessage: 'must be an action such as webhook.created, or webhook. for all of its kind' })),
    /** A member's id, `api_key` for every API key's actions, or `cli` for the server's own. */
    by: Type.Optional(Text({ maxLength: 64, pattern: '^[A-Za-z0-9_]+$', errorMessage: "must be a member's id, api_key or cli" })),
  },
  { additionalProperties: false },
);
