import type { Job } from './job.js';

/** What a message needs to be sent, as a send or a requeue knows it. */
export interface DispatchFields {
  body: string;
  segments: number;
  simSubscriptionId: number | null;
  requestedDeviceId: string | null;
  expiresAt: number;
  /** A phone that may not take the message before `until` (ms): the one it was withdrawn from, or failed on. */
  avoid?: { deviceId: string; until: number } | null;
  /** The send ignores the send windows (quiet hours): `"iw":1`. */
  ignoreSendWindows?: boolean;
}

/**
 * The dispatch JSON: one message's entry in the queue meta hash (message id → this), kept beside
 * the queue so a claim reads no Postgres. Written by dispatchMeta/batchMetaFormatter, read by
 * decodeDispatchMeta and by lua/claimJobs-7.lua with `cjson.decode`, which reads these names:
 *
 * | field | meaning                                          | claimJobs reads it as                                   |
 * |-------|--------------------------------------------------|---------------------------------------------------------|
 * | to    | recipient, E.164                                 | `meta['to']`: its network (carrier routing, off-net wait) |
 * | body  | text                                             | not read                                                |
 * | seg   | SMS parts                                        | `meta['seg']`: pacing window and each SIM's daily cap     |
 * | sim   | SIM the send asked for, or null (`cjson.null`)   | `meta['sim']`: taken as is (sim_requested)                |
 * | dev   | device the send pinned it to, or null            | not read (a pinned message sits in that device's queue) |
 * | exp   | expiry, ms                                       | `meta['exp']`: an expired message is skipped              |
 * | av    | device that may not take it (absent: none)       | `meta['av']` compared with ARGV[1], the claiming device   |
 * | avu   | until when, ms                                   | `meta['avu']`                                            |
 * | iw    | 1: ignores the send windows (absent: obeys them) | `meta['iw'] == 1`: taken while the windows are closed     |
 *
 * test/dispatch-queue/dispatch-meta.test.ts claims what this file writes through the script.
 */
export interface DispatchMeta {
  to: string;
  body: string;
  seg: number;
  sim: number | null;
  dev: string | null;
  exp: number;
  av?: string;
  avu?: number;
  iw?: 1;
}

export function dispatchMeta(to: string, f: DispatchFields): string {
  return batchMetaFormatter(f)(to);
}

/** The messages of one send differ only by recipient: the rest of their JSON is made once. */
export function batchMetaFormatter(f: DispatchFields): (to: string) => string {
  const avoid = f.avoid ? `,"av":${JSON.stringify(f.avoid.deviceId)},"avu":${f.avoid.until}` : '';
  const iw = f.ignoreSendWindows ? ',"iw":1' : '';
  const rest =
    `,"body":${JSON.stringify(f.body)},"seg":${f.segments},"sim":${JSON.stringify(f.simSubscriptionId)},` + `"dev":${JSON.stringify(f.requestedDeviceId)},"exp":${f.expiresAt}${avoid}${iw}}`;
  return (to) => `{"to":${JSON.stringify(to)}${rest}`;
}

/** The meta the claim script handed back with a message: written by this file only, so not checked again. */
export const decodeDispatchMeta = (text: string): DispatchMeta => JSON.parse(text) as DispatchMeta;

/** The job a phone receives for a claimed message, on the SIM the claim chose (-1: none, the phone's default). */
export const jobOf = (messageId: string, meta: DispatchMeta, sim: number): Job => ({
  messageId,
  to: meta.to,
  body: meta.body,
  segments: meta.seg,
  simSubscriptionId: sim >= 0 ? sim : null,
  expiresAt: new Date(meta.exp).toISOString(),
});
