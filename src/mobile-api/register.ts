import type { AppContext } from '../context/app-context.js';
import { pairDevice } from '../devices/pairing.js';
import { errors } from '../errors/errors.js';
import { appSimsToReported } from './app-sims.js';
import { confirmsCancellation, readAppVersion } from './app-version.js';
import type { AppHeaders } from './authenticate-app.js';
import type { RegisterBody } from './schemas.js';

export interface Registration {
  id: string;
  token: string;
  /** Required by the app; Hafatra has no per-phone account, so it is the device id (shown in the app). */
  login: string;
}

/**
 * The pairing code the user typed as the app's "Private Token" (`Bearer <code>`), or entered
 * with "Sign in by code" (`Code <code>`). Hafatra has no login and password for phones: `Basic`
 * and a missing header get the 401 a wrong code gets.
 */
export function pairingCodeOf(authorization: string | undefined): string | undefined {
  const m = authorization ? /^(?:Bearer|Code)[ \t]+([\x21-\x7e][\x20-\x7e]{0,31})$/i.exec(authorization.trim()) : null;
  return m?.[1]?.trim() || undefined;
}

/**
 * POST /mobile/v1/device: spends a Hafatra pairing code (the dashboard's, `hafatra device pair`)
 * exactly as POST /device/v1/pair does (single use, throttled failures), making a device of the
 * code's organization named as the app registered it, with its SIMs and the app's version.
 */
export async function registerAppDevice(ctx: AppContext, headers: AppHeaders, body: RegisterBody, clientAddress: string): Promise<Registration> {
  const code = pairingCodeOf(headers.authorization);
  if (!code) throw errors.unauthorized("set the app's Private Token to a Hafatra pairing code (from the dashboard or `hafatra device pair`)");
  const version = readAppVersion(headers.userAgent);
  const name = body.name?.trim() || undefined;
  const { deviceId, token } = await pairDevice(ctx, { code, name, model: name, appVersion: version?.label ?? printable(headers.userAgent, 64) }, clientAddress, {
    protocol: 'mobile',
    confirmsCancellation: confirmsCancellation(version),
    sims: appSimsToReported(body.simCards ?? []),
  });
  return { id: deviceId, token, login: deviceId };
}

/** A header's text fit to show: printable ASCII, bounded; undefined when nothing is left. */
export const printable = (text: string | undefined, max: number) => text?.replace(/[^\x20-\x7e]/g, '').slice(0, max) || undefined;
