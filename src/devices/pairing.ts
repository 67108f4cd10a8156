import type { AppContext } from '../context/app-context.js';
import { inTransaction, type Queryable } from '../db/pool.js';
import { errors } from '../errors/errors.js';
import { newId } from '../ids/ids.js';
import { syncDeviceState } from '../dispatch-queue/device-state.js';
import { newDeviceToken } from './device-token.js';
import { hashPairingCode, newPairingCode } from './pairing-code.js';
import type { PairBody, ReportedSim } from './schemas.js';
import { syncSims } from './sims.js';
import { unusedName } from './unused-name.js';

export const PAIRING_CODE_TTL_SECONDS = 600;
/** Failed pairing attempts accepted per minute from one client address; beyond it, that address gets 429. */
export const PAIRING_FAILURES_PER_ADDRESS_PER_MINUTE = 10;
/**
 * Failed pairing attempts accepted per minute, server-wide; beyond it pairing answers 429 to
 * everyone. A guesser spread over many addresses gets at most 3,000 tries in a code's 10
 * minutes, against 2^40 codes.
 */
export const PAIRING_FAILURES_PER_MINUTE = 300;
const DEFAULT_DEVICE_NAME = 'Android phone';

export interface PairingCode {
  code: string;
  expiresAt: Date;
}

/** A one-time code (10 minutes) that a phone exchanges for its device token. Only its hash is kept. */
export async function createPairingCode(ctx: AppContext, orgId: string, name?: string): Promise<PairingCode> {
  const code = newPairingCode();
  const { rows } = await ctx.db.query(
    `INSERT INTO pairing_codes (code_hash, org_id, name, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 second')
     RETURNING expires_at AS "expiresAt"`,
    [hashPairingCode(code), orgId, name ?? null, PAIRING_CODE_TTL_SECONDS],
  );
  // Unused codes are worthless once expired; used ones stay as the record of who paired what.
  await ctx.db.query(`DELETE FROM pairing_codes WHERE used_at IS NULL AND expires_at < now() - interval '1 day'`);
  return { code, expiresAt: (rows[0] as { expiresAt: Date }).expiresAt };
}

/** A phone pairing through the mobile API (src/mobile-api/): its door, and the SIMs it registered with. */
export interface MobilePairing {
  protocol: 'mobile';
  confirmsCancellation: boolean;
  sims: ReportedSim[];
}

/**
 * POST /device/v1/pair (and the mobile API's POST /mobile/v1/device): the code is spent by one
 * conditional UPDATE, so two phones racing with the same code cannot both pair. The device is
 * named by the operator's `--name` if given, else by what the phone sent, else by its model.
 */
export async function pairDevice(ctx: AppContext, body: PairBody, clientAddress: string, mobile?: MobilePairing): Promise<{ deviceId: string; token: string }> {
  await assertNotThrottled(ctx.db, clientAddress);
  const { token, hash } = newDeviceToken();
  const deviceId = await inTransaction(ctx.db, async (tx) => {
    const { rows } = await tx.query(
      `UPDATE pairing_codes SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now()
       RETURNING org_id AS "orgId", name`,
      [hashPairingCode(body.code)],
    );
    const spent = rows[0] as { orgId: string; name: string | null } | undefined;
    if (!spent) return undefined;
    const id = newId('device');
    await tx.query(`INSERT INTO devices (id, org_id, name, model, app_version, token_hash, protocol, confirms_cancellation) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      id,
      spent.orgId,
      spent.name ?? (await unusedName(tx, spent.orgId, body.name ?? (body.model || DEFAULT_DEVICE_NAME))),
      body.model || null,
      body.appVersion || null,
      hash,
      mobile?.protocol ?? 'device',
      mobile?.confirmsCancellation ?? false,
    ]);
    if (mobile && mobile.sims.length > 0) await syncSims(tx, id, mobile.sims);
    await tx.query('UPDATE pairing_codes SET device_id = $2 WHERE code_hash = $1', [hashPairingCode(body.code), id]);
    return id;
  });
  if (!deviceId) {
    await recordFailure(ctx.db, clientAddress);
    throw errors.unauthorized('pairing code is wrong, expired or already used; create a new one with `hafatra device pair`');
  }
  await syncDeviceState(ctx, deviceId);
  ctx.log.info({ deviceId }, 'device paired');
  return { deviceId, token };
}

async function assertNotThrottled(db: Queryable, address: string): Promise<void> {
  const { rows } = await db.query(
    `SELECT coalesce(sum(failures), 0)::int AS "all", coalesce(sum(failures) FILTER (WHERE address = $1), 0)::int AS mine,
       60 - extract(epoch FROM now() - date_trunc('minute', now())) AS "retryAfter"
     FROM pairing_failures WHERE minute = date_trunc('minute', now())`,
    [address],
  );
  const current = rows[0] as { all: number; mine: number; retryAfter: number };
  const retryAfter = Number(current.retryAfter);
  if (current.mine >= PAIRING_FAILURES_PER_ADDRESS_PER_MINUTE) {
    throw errors.rateLimited('too many failed pairing attempts from this address; try again in a minute', retryAfter);
  }
  if (current.all >= PAIRING_FAILURES_PER_MINUTE) {
    throw errors.rateLimited('too many failed pairing attempts on this server; try again in a minute', retryAfter);
  }
}

async function recordFailure(db: Queryable, address: string): Promise<void> {
  await db.query(
    `WITH old AS (DELETE FROM pairing_failures WHERE minute < now() - interval '1 hour')
     INSERT INTO pairing_failures (minute, address, failures) VALUES (date_trunc('minute', now()), $1, 1)
     ON CONFLICT (minute, address) DO UPDATE SET failures = pairing_failures.failures + 1`,
    [address],
  );
}
