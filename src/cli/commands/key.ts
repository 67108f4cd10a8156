import { UsageError, printObject, printRows, type Command, type CommandArgs } from '../command.js';
import { orgOf } from '../org-option.js';
import { SCOPES, isScope, type Scope } from '../../auth/principal.js';
import { createApiKey, revokeApiKey, rotateApiKey } from '../../auth/api-key-admin.js';
import type { ApiKeyRow } from '../../auth/api-key-store.js';
import { listApiKeys } from '../../auth/sql/list-api-keys.js';

const COLUMNS = ['id', 'name', 'hint', 'scopes', 'expiresAt', 'revokedAt', 'createdAt'];

/**
 * What every key command prints: the fields an operator uses, named one by one so that nothing
 * else a store function returns (the stored hash of the secret, for one) can reach the output.
 * The secret itself is added only by create and rotate, the one time it exists in clear.
 */
function keyView(k: ApiKeyRow): Record<string, unknown> {
  return {
    id: k.id,
    orgId: k.orgId,
    name: k.name,
    hint: k.hint,
    scopes: k.scopes,
    ratePerSecond: k.ratePerSecond,
    rateBurst: k.rateBurst,
    expiresAt: k.expiresAt,
    revokedAt: k.revokedAt,
    replacedBy: k.replacedBy,
    createdAt: k.createdAt,
  };
}

function parseScopes(args: CommandArgs): Scope[] {
  const raw = args.values.scopes;
  if (raw === undefined || raw === 'all') return [...SCOPES];
  const list = String(raw)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find((s) => !isScope(s));
  if (bad || list.length === 0) throw new UsageError(`--scopes takes a comma list of ${SCOPES.join(', ')} (or all)`);
  return list as Scope[];
}

/** --expires takes an ISO date-time, or a duration like 30d, 12h. */
function parseExpiry(raw: unknown): Date | null {
  if (raw === undefined) return null;
  const s = String(raw);
  const duration = /^(\d+)([dhm])$/.exec(s);
  if (duration) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[duration[2] as 'd' | 'h' | 'm'];
    return new Date(Date.now() + Number(duration[1]) * unit);
  }
  const d = new Date(s);
  if (Number.isNaN(d.getTime()) || d.getTime() <= Date.now()) throw new UsageError('--expires takes a future ISO date-time or a duration like 30d, 12h, 45m');
  return d;
}

export const keyCommands: Command[] = [
  {
    path: ['key', 'create'],
    summary: 'Create an API key (printed once)',
    usage: 'hafatra key create [--org default] [--name NAME] [--scopes all|s1,s2] [--expires 30d|ISO] [--json]',
    options: { org: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, expires: { type: 'string' } },
    async run(args, io, services) {
      const scopes = parseScopes(args);
      const expiresAt = parseExpiry(args.values.expires);
      const ctx = await services();
      const org = await orgOf(ctx, args);
      const { row, secret } = await createApiKey(ctx, { orgId: org.id, name: String(args.values.name ?? 'cli'), scopes, expiresAt });
      printObject(io, args.json, { ...keyView(row), key: secret });
      if (!args.json) io.err('Store the key now: it is not shown again.');
      return 0;
    },
  },
  {
    path: ['key', 'list'],
    summary: "List an organization's API keys",
    usage: 'hafatra key list [--org default] [--json]',
    options: { org: { type: 'string' } },
    async run(args, io, services) {
      const ctx = await services();
      const org = await orgOf(ctx, args);
      printRows(io, args.json, (await listApiKeys(ctx.db, org.id)).map(keyView), COLUMNS);
      return 0;
    },
  },
  {
    path: ['key', 'rotate'],
    summary: 'Replace a key with a new secret (the old one stops at once)',
    usage: 'hafatra key rotate KEY_ID [--json]',
    async run(args, io, services) {
      const id = args.positionals[0];
      if (!id) throw new UsageError('name the key id (key_…)');
      const ctx = await services();
      const made = await rotateApiKey(ctx, id);
      if (!made) throw new UsageError(`no live key ${id}`);
      printObject(io, args.json, { ...keyView(made.row), key: made.secret, replaces: id });
      return 0;
    },
  },
  {
    path: ['key', 'revoke'],
    summary: 'Revoke a key (refused on its very next request)',
    usage: 'hafatra key revoke KEY_ID [--json]',
    async run(args, io, services) {
      const id = args.positionals[0];
      if (!id) throw new UsageError('name the key id (key_…)');
      const ctx = await services();
      const row = await revokeApiKey(ctx, id);
      if (!row) throw new UsageError(`no key ${id}`);
      printObject(io, args.json, keyView(row));
      return 0;
    },
  },
];
