import type { AppContext } from '../../src/context/app-context.js';
import { newId } from '../../src/ids/ids.js';

/** A device row written straight to Postgres, for tests of the public API that need a phone to exist. */
export async function insertTestDevice(
  ctx: AppContext,
  orgId: string,
  opts: { name?: string; outboundEnabled?: boolean; draining?: boolean; revoked?: boolean; sims?: number[] } = {},
): Promise<string> {
  const id = newId('device');
  await ctx.db.query(
    `INSERT INTO devices (id, org_id, name, outbound_enabled, draining, revoked_at, revoked_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, orgId, opts.name ?? 'Test phone', opts.outboundEnabled ?? true, opts.draining ?? false, opts.revoked ? new Date() : null, opts.revoked ? 'test' : null],
  );
  for (const sim of opts.sims ?? []) {
    await ctx.db.query('INSERT INTO device_sims (device_id, subscription_id) VALUES ($1, $2)', [id, sim]);
  }
  return id;
}
