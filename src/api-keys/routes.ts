import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { Text } from '../schemas/schema-kit.js';
import { recordAudit } from '../audit/record-audit.js';
import { SCOPES } from '../auth/principal.js';
import { createApiKey, revokeApiKey, rotateApiKey } from '../auth/api-key-admin.js';
import type { ApiKeyRow } from '../auth/api-key-store.js';
import { findApiKey } from '../auth/sql/find-api-key.js';
import { listApiKeys } from '../auth/sql/list-api-keys.js';

const CreateKeyBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 128 }),
    scopes: Type.Array(Type.Union(SCOPES.map((s) => Type.Literal(s))), { minItems: 1, maxItems: SCOPES.length, uniqueItems: true, errorMessage: `must list scopes among ${SCOPES.join(', ')}` }),
    expiresAt: Type.Union([Text({ maxLength: 40 }), Type.Null()], { errorMessage: 'must be a date-time or null' }),
  },
  { additionalProperties: false },
);

/** What the dashboard shows of a key: never its hash, and its secret only in the create/rotate answer. */
export const keyView = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  hint: k.hint,
  scopes: k.scopes,
  expiresAt: k.expiresAt,
  revokedAt: k.revokedAt,
  replacedBy: k.replacedBy,
  lastUsedAt: k.lastUsedAt,
  createdAt: k.createdAt,
});

/** The organization's API keys, managed from the dashboard (the spec: "Keys are created in the dashboard"). */
export function apiKeyRoutes(ctx: AppContext): AnyRoute[] {
  const ownKey = async (orgId: string, id: string) => {
    const key = await findApiKey(ctx.db, id);
    if (!key || key.orgId !== orgId) throw errors.notFound('API key');
    return key;
  };
  return [
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/keys',
      auth: { role: 'viewer' },
      summary: "The organization's API keys, newest first, with their last use",
      handler: async (req) => ({ status: 200, body: { keys: (await listApiKeys(ctx.db, req.principal.orgId)).reverse().map(keyView) } }),
    }),
    memberRoute({
      method: 'post',
      path: '/dashboard/v1/keys',
      auth: { role: 'admin' },
      body: CreateKeyBody,
      clientAddress: true,
      summary: 'Create a key; its secret is in this answer only',
      handler: async (req) => {
        const expiresAt = req.body.expiresAt === null ? null : new Date(req.body.expiresAt);
        if (expiresAt && Number.isNaN(expiresAt.getTime())) throw errors.invalid('expiresAt: must be an RFC 3339 date-time or null');
        if (expiresAt && expiresAt.getTime() <= Date.now()) throw errors.invalid('expiresAt: must be in the future');
        const { row, secret } = await createApiKey(ctx, { orgId: req.principal.orgId, name: req.body.name, scopes: req.body.scopes, expiresAt });
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'key.created', target: row.id, detail: { name: row.name, scopes: row.scopes, expiresAt } });
        return { status: 201, body: { key: keyView(row), secret } };
      },
    }),
    memberRoute({
      method: 'post',
      path: '/dashboard/v1/keys/:keyId/rotate',
      auth: { role: 'admin' },
      clientAddress: true,
      summary: 'Replace a key with a new secret; the old one stops at once',
      handler: async (req) => {
        await ownKey(req.principal.orgId, req.params.keyId!);
        const made = await rotateApiKey(ctx, req.params.keyId!);
        if (!made) throw errors.conflict('this key is revoked: create a new one');
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'key.rotated', target: req.params.keyId, detail: { newKeyId: made.row.id } });
        return { status: 201, body: { key: keyView(made.row), secret: made.secret } };
      },
    }),
    memberRoute({
      method: 'delete',
      path: '/dashboard/v1/keys/:keyId',
      auth: { role: 'admin' },
      clientAddress: true,
      summary: 'Revoke a key: it stops working at once',
      handler: async (req) => {
        await ownKey(req.principal.orgId, req.params.keyId!);
        const row = await revokeApiKey(ctx, req.params.keyId!);
        if (!row) throw errors.notFound('API key');
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'key.revoked', target: row.id });
        return { status: 200, body: keyView(row as ApiKeyRow) };
      },
    }),
  ];
}
