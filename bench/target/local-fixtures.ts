import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../src/context/app-context.js';
import { insertOrganization } from '../../src/orgs/sql/insert-organization.js';
import { createApiKey } from '../../src/auth/api-key-admin.js';
import { SCOPES } from '../../src/auth/principal.js';
import { newDeviceToken } from '../../src/devices/device-token.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import { newId } from '../../src/ids/ids.js';
import type { PhoneCredential, PhoneGroup, Tenant } from './target.js';

/** The spec's largest daily limit: no organization may be asked for more than this per day. */
export const MAX_DAILY_LIMIT = 100_000;
/** Enough for the load generator never to meet the per-key rate limit (it is not what is measured). */
const UNLIMITED_RATE = 1_000_000;
const PACING_PER_MINUTE = 1_000_000;

/** An organization (at the maximum daily limit unless told) with a key that has every scope and no practical rate limit. */
export async function createTenantOrg(ctx: AppContext, dailyLimit = MAX_DAILY_LIMIT): Promise<{ orgId: string; key: string }> {
  const org = await insertOrganization(ctx.db, { name: `bench-${randomBytes(6).toString('hex')}`, dailyLimit });
  const { secret } = await createApiKey(ctx, {
    orgId: org.id,
    name: 'bench',
    scopes: SCOPES,
    ratePerSecond: UNLIMITED_RATE,
    rateBurst: UNLIMITED_RATE,
  });
  return { orgId: org.id, key: secret };
}

/**
 * Phone rows written straight to Postgres in one statement (pairing 10,000 phones one code at a
 * time would measure pairing, not the scenario), each with a device token and raised pacing.
 * Their dispatch state is mirrored to Redis as pairing does, unless there are too many to matter.
 */
export async function insertPhones(ctx: AppContext, orgId: string, count: number, door: 'device' | 'mobile' = 'device'): Promise<PhoneCredential[]> {
  const phones = Array.from({ length: count }, () => ({ deviceId: newId('device'), ...newDeviceToken() }));
  // A mobile phone is one SMS Gateway for Android 1.68.0 registered (src/mobile-api/).
  await ctx.db.query(
    `INSERT INTO devices (id, org_id, name, token_hash, pacing_per_minute, protocol, confirms_cancellation, app_version)
     SELECT id, $2, 'Bench phone', hash, $3, $5, $5 = 'mobile', CASE WHEN $5 = 'mobile' THEN 'SMS Gateway for Android 1.68.0' END
     FROM unnest($1::text[], $4::bytea[]) AS t(id, hash)`,
    [phones.map((p) => p.deviceId), orgId, PACING_PER_MINUTE, phones.map((p) => p.hash), door],
  );
  if (count <= 200) for (const p of phones) await syncDeviceState(ctx, p.deviceId);
  return phones.map(({ deviceId, token }) => ({ deviceId, token }));
}

export async function createTenants(ctx: AppContext, count: number, dailyLimit?: number): Promise<Tenant[]> {
  const tenants: Tenant[] = [];
  for (let i = 0; i < count; i += 1) {
    const t = await createTenantOrg(ctx, dailyLimit);
    await insertPhones(ctx, t.orgId, 1);
    tenants.push({ key: t.key });
  }
  return tenants;
}

export async function createPhoneGroups(ctx: AppContext, orgs: number, perOrg: number, door: 'device' | 'mobile' = 'device'): Promise<PhoneGroup[]> {
  const groups: PhoneGroup[] = [];
  for (let i = 0; i < orgs; i += 1) {
    const t = await createTenantOrg(ctx);
    groups.push({ key: t.key, phones: await insertPhones(ctx, t.orgId, perOrg, door) });
  }
  return groups;
}
