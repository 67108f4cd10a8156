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
import { deleteExpiredPairingCodes } from './sql/delete-expired-pairing-codes.js';
import { insertDevice } from './sql/insert-device.js';
import { insertPairingCode } from './sql/insert-pairing-code.js';
import { recordPairingFailure } from './sql/record-pairing-failure.js';
import { selectPairingFailures } from './sql/select-pairing-failures.js';
import { setPairingCodeDevice } from './sql/set-pairing-code-device.js';
import { spendPairingCode } from './sql/spend-pairing-code.js';

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
  const expiresAt = await insertPairingCode(ctx.db, hashPairingCode(code), orgId, name ?? null, PAIRING_CODE_TTL_SECONDS);
  await deleteExpiredPairingCodes(ctx.db);
  return { code, expiresAt };
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
    const spent = await spendPairingCode(tx, hashPairingCode(body.code));
    if (!spent) return undefined;
    const id = newId('device');
    await insertDevice(tx, {
      id,
      orgId: spent.orgId,
      name: spent.name ?? (await unusedName(tx, spent.orgId, body.name ?? (body.model || DEFAULT_DEVICE_NAME))),
      model: body.model || null,
      appVersion: body.appVersion || null,
      tokenHash: hash,
      protocol: mobile?.protocol ?? 'device',
      confirmsCancellation: mobile?.confirmsCancellation ?? false,
    });
    if (mobile && mobile.sims.length > 0) await syncSims(tx, id, mobile.sims);
    await setPairingCodeDevice(tx, hashPairingCode(body.code), id);
    return id;
  });
  if (!deviceId) {
    await recordPairingFailure(ctx.db, clientAddress);
    throw errors.unauthorized('pairing code is wrong, expired or already used; create a new one with `hafatra device pair`');
  }
  await syncDeviceState(ctx, deviceId);
  ctx.log.info({ deviceId }, 'device paired');
  return { deviceId, token };
}

async function assertNotThrottled(db: Queryable, address: string): Promise<void> {
  const current = await selectPairingFailures(db, address);
  const retryAfter = Number(current.retryAfter);
  if (current.mine >= PAIRING_FAILURES_PER_ADDRESS_PER_MINUTE) {
    throw errors.rateLimited('too many failed pairing attempts from this address; try again in a minute', retryAfter);
  }
  if (current.all >= PAIRING_FAILURES_PER_MINUTE) {
    throw errors.rateLimited('too many failed pairing attempts on this server; try again in a minute', retryAfter);
  }
}
