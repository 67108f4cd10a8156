import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { errors } from '../errors/errors.js';
import { deviceTokenHash } from '../devices/device-token.js';
import { versionOfLabel, type AppVersion } from './app-version.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { perContext } from '../batching/per-context.js';
import { selectAppDevices } from './sql/select-app-devices.js';

/** A phone of the mobile API, as every call after registration sees it. */
export interface AppDevice extends DevicePrincipal {
  /** The app version it last registered or started with (from its User-Agent), if known. */
  version: AppVersion | null;
  /** It understands `Cancelling` and MessageCancelled, and confirms with `Cancelled` (v1.67.0+). */
  confirmsCancellation: boolean;
}

/** The headers a mobile call is authenticated with, copied out of the request. */
export interface AppHeaders {
  authorization?: string;
  userAgent?: string;
}

export const appUnauthorized = () => errors.unauthorized('missing, unknown or revoked device token; register the phone again with a new pairing code');

/** A busy phone does not rewrite its row on each call: last_seen_at moves at most this often. */
const SEEN_RESOLUTION_SECONDS = 10;

/** One process's lookups, batched: a fleet pulling and reporting at once costs a statement a turn. */
const lookups = perContext((ctx: AppContext) => new TickBatcher((hashes: Buffer[]) => lookUp(ctx, hashes), 256));

/**
 * `Authorization: Bearer <device token>` → the mobile phone it belongs to, or 401. Read from
 * Postgres on every call, as for native phones (src/devices/authenticate-device.ts): a revoke is
 * seen by the very next call on every process. A native phone's token is refused here: the two
 * protocols hand out jobs under different rules. The same statement marks the phone as seen,
 * which keeps it online while it calls. The calls of one event-loop turn share the statement.
 */
export async function authenticateAppDevice(ctx: AppContext, headers: AppHeaders): Promise<AppDevice> {
  const hash = deviceTokenHash(headers.authorization);
  if (!hash) throw appUnauthorized();
  const found = await lookups(ctx).load(hash);
  if (!found) throw appUnauthorized();
  return found;
}

async function lookUp(ctx: AppContext, hashes: Buffer[]): Promise<(AppDevice | undefined)[]> {
  const rows = await selectAppDevices(ctx.db, hashes, SEEN_RESOLUTION_SECONDS);
  const byHash = new Map(
    rows.map((r) => [r.tokenHash.toString('hex'), { kind: 'device' as const, orgId: r.orgId, deviceId: r.id, version: versionOfLabel(r.appVersion), confirmsCancellation: r.confirmsCancellation }]),
  );
  return hashes.map((h) => byHash.get(h.toString('hex')));
}
