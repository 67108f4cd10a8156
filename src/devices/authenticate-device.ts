import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { errors } from '../errors/errors.js';
import { deviceTokenHash } from './device-token.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { selectDevicesByTokens } from './sql/select-devices-by-tokens.js';

export const deviceUnauthorized = () => errors.unauthorized('missing, unknown or revoked device token');

/**
 * Device token → principal, read from Postgres on every request. Phones are few (a handful per
 * organization) and call at most a few times a minute over HTTP (sockets authenticate once, on
 * upgrade), so one indexed lookup costs nothing, and reading the truth means a revoke is seen
 * on the very next request by every process with no cache to invalidate. The same statement
 * marks the phone as seen, at most every SEEN_RESOLUTION_SECONDS so a busy phone does not
 * rewrite its row on each call. The lookups of one event-loop turn share one statement: a fleet
 * reconnecting at once (10,000 socket upgrades) makes a few dozen queries, not 10,000.
 */
const SEEN_RESOLUTION_SECONDS = 10;

export function deviceAuthenticator(ctx: AppContext) {
  const lookups = new TickBatcher<Buffer, { id: string; orgId: string } | undefined>(async (hashes) => {
    const found = await selectDevicesByTokens(ctx.db, hashes, SEEN_RESOLUTION_SECONDS);
    const byHash = new Map(found.map((d) => [d.tokenHash.toString('hex'), d]));
    return hashes.map((h) => byHash.get(h.toString('hex')));
  }, 500);
  return async function authenticateDevice(authorization: string | undefined): Promise<DevicePrincipal> {
    const hash = deviceTokenHash(authorization);
    if (!hash) throw deviceUnauthorized();
    const found = await lookups.load(hash);
    if (!found) throw deviceUnauthorized();
    return { kind: 'device', orgId: found.orgId, deviceId: found.id };
  };
}
