/**
 * Which SMS Gateway for Android a phone runs, from its User-Agent (`me.capcom.smsgateway/1.68.0`).
 * The protocol changed under the same paths (smsgate-mobile-protocol.md §1.5): what the server
 * sends depends on the version, so it is read at registration and at every service start.
 */
export interface AppVersion {
  /** What the device shows as its app (`appVersion` in /v1/devices). */
  label: string;
  major: number;
  minor: number;
  patch: number;
}

const APP_LABEL = 'SMS Gateway for Android';
const USER_AGENT = /^me\.capcom\.smsgateway\/v?(\d{1,4})\.(\d{1,4})\.(\d{1,4})(?:[^\s]*)/i;

/** The app's version, or null for another client (or an unreadable User-Agent). */
export function readAppVersion(userAgent: string | undefined): AppVersion | null {
  const m = userAgent ? USER_AGENT.exec(userAgent.trim()) : null;
  if (!m) return null;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return { label: `${APP_LABEL} ${major}.${minor}.${patch}`, major, minor, patch };
}

/** Reads a label written by readAppVersion back (the version stored on the device). */
export function versionOfLabel(label: string | null): AppVersion | null {
  const m = label ? /(\d{1,4})\.(\d{1,4})\.(\d{1,4})$/.exec(label) : null;
  return m ? { label: label!, major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : null;
}

export function atLeast(v: AppVersion | null, major: number, minor: number, patch = 0): boolean {
  if (!v) return false;
  if (v.major !== major) return v.major > major;
  if (v.minor !== minor) return v.minor > minor;
  return v.patch >= patch;
}

/** v1.67.0: `state` on pulled messages, MessageCancelled, and the `Cancelled` report. */
export const confirmsCancellation = (v: AppVersion | null) => atLeast(v, 1, 67, 0);
