import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { pipelineByNode } from '../redis/pipeline-by-node.js';
import { selectRevokedDevices } from './sql/select-revoked-devices.js';

/** Whether a phone's device was revoked, asked by its socket's frames. */
export interface RevocationChecks {
  /** The quick check, Redis's copy of the device state, made before every frame. */
  inRedis(principal: DevicePrincipal): Promise<boolean>;
  /** The device row, for frames refused or claims come back empty. */
  inPostgres(deviceId: string): Promise<boolean>;
}

/**
 * Both checks batched by event-loop turn: the frames of a fleet reporting at once share one
 * pipelined round trip instead of a Redis call each, and the empty claims of a fleet woken at
 * once one statement instead of a read of each device row.
 */
export function revocationChecks(ctx: AppContext): RevocationChecks {
  const inRedis = new TickBatcher<DevicePrincipal, boolean>(async (principals) => {
    const replies = await pipelineByNode(
      ctx.redis,
      principals,
      (p) => ctx.keys.org(p.orgId).deviceState(p.deviceId),
      (reads, p) => reads.hget(ctx.keys.org(p.orgId).deviceState(p.deviceId), 'revoked'),
    );
    return replies.map(([err, revoked]) => {
      if (err) throw err;
      return revoked === '1';
    });
  }, 512);
  const inPostgres = new TickBatcher<string, boolean>(async (deviceIds) => {
    const revoked = await selectRevokedDevices(ctx.db, deviceIds);
    return deviceIds.map((id) => revoked.has(id));
  }, 512);
  return { inRedis: (p) => inRedis.load(p), inPostgres: (deviceId) => inPostgres.load(deviceId) };
}
