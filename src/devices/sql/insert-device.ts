import type { Queryable } from '../../db/pool.js';

export interface DeviceToInsert {
  id: string;
  orgId: string;
  name: string;
  model: string | null;
  appVersion: string | null;
  tokenHash: Buffer | string;
  protocol: string;
  confirmsCancellation: boolean;
}

export async function insertDevice(tx: Queryable, d: DeviceToInsert): Promise<void> {
  await tx.query(`INSERT INTO devices (id, org_id, name, model, app_version, token_hash, protocol, confirms_cancellation) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
    d.id,
    d.orgId,
    d.name,
    d.model,
    d.appVersion,
    d.tokenHash,
    d.protocol,
    d.confirmsCancellation,
  ]);
}
