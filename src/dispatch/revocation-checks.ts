import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { answerByGroup } from '../batching/group-by.js';
import { revokedPhones } from '../redis/scripts/revoked-phones.js';
import { selectRevokedDevices } from './sql/select-revoked-devices.js';

/** Whether a phone's device was revoked, asked by its socket's frames. */
export interface RevocationChecks {
  /** The quick check, Redis's copy of the device state, made before every frame. */
  inRedis(principal: DevicePrincipal): Promise<boolean>;
  /** The device row, for frames refused or claims come back empty. */
  inPostgres(deviceId: string): Promise<boolean>;
}

/**
 * Both checks batched by event-loop turn: the frames of a fleet reporting at once share a script
 * call per organization instead of a Redis command each, and the empty claims of a fleet woken
 * at once one statement instead of a read of each device row.
 */
export function revocationChecks(ctx: AppContext): RevocationChecks {
  const inRedis = new TickBatcher<DevicePrincipal, boolean>(
    (principals) =>
      answerByGroup(
        principals,
        (p) => p.orgId,
        (orgId, phones) => revokedPhones(ctx.redis, { deviceStatePrefix: ctx.keys.org(orgId).deviceStatePrefix() }, { deviceIds: phones.map((p) => p.deviceId) }),
      ),
    512,
  );
  const inPostgres = new TickBatcher<string, boolean>(async (deviceIds) => {
    const revoked = await selectRevokedDevices(ctx.db, deviceIds);
    return deviceIds.map((id) => revoked.has(id));
  }, 512);
  return { inRedis: (p) => inRedis.load(p), inPostgres: (deviceId) => inPostgres.load(deviceId) };
}
