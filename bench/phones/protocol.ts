/** Messages between the bench and its phone-fleet process (IPC). */
import type { PhoneCredential } from '../target/target.js';

/**
 * What a phone of the chaos fleet does besides following the protocol (fleet-chaos scenario).
 * `silent-close` drops its socket without a word and `silent-mute` keeps it open but answers
 * nothing, each `silentAfterMs` after its first job and for the rest of the run; `failing`
 * reports `failed` (no_service) for `failShare` of its jobs; `limited` is refused by "Android"
 * (limit_exceeded) past `limitParts` sends in `limitWindowMs`, like SmsUsageMonitor.
 */
export interface PhoneRole {
  role: 'healthy' | 'silent-close' | 'silent-mute' | 'failing' | 'limited';
  silentAfterMs?: number;
  failShare?: number;
  limitParts?: number;
  limitWindowMs?: number;
}

export interface ChaosSettings {
  /** One per phone, in the order of `phones`. */
  roles: PhoneRole[];
  /** How long "the radio" takes to send one SMS. */
  radioMs: number;
}

export interface FleetStart {
  type: 'start';
  /** ws(s)://host:port/device/v1/socket, with its query (maxJobs) if any. */
  socketUrl: string;
  phones: PhoneCredential[];
  /**
   * idle: hold the socket and heartbeat; work: take every job through sending → sent → delivered;
   * chaos: one job at a time through a radio, each phone playing its role (`chaos`).
   */
  mode: 'idle' | 'work' | 'chaos';
  chaos?: ChaosSettings;
  /** Sockets opened at once. */
  batch: number;
  heartbeatMs: number;
}

/**
 * What the chaos phones saw, batched: `arrivals` [messageId, phone index, ms] each time a `jobs`
 * frame carried the message to a phone (repeats included); `radio` each time a phone handed it to
 * Android; `finals` each acknowledged sent / delivered / failed; `stops` when a phone went silent
 * or Android refused it for the limit; `refused` `sending` answered invalid_transition (the job
 * was withdrawn); `ackedAfterWithdrawn` a `sending` acked after its `withdrawn` frame (a server bug:
 * the phone does not send it).
 */
export interface ChaosBatch {
  type: 'chaos';
  arrivals: Array<[string, number, number]>;
  radio: Array<[string, number, number]>;
  finals: Array<[string, number, number, 'sent' | 'delivered' | 'failed']>;
  stops: Array<[number, number, 'silent' | 'limit']>;
  refused: number;
  ackedAfterWithdrawn: Array<[string, number]>;
}

export type FleetEvent =
  | { type: 'progress'; connected: number; failed: number }
  | { type: 'ready'; connected: number; failed: number; firstError?: string }
  /** [messageId, wall-clock ms] of each job frame entry as it reached the phone. */
  | { type: 'jobs'; items: Array<[string, number]> }
  | { type: 'delivered'; items: Array<[string, number]> }
  | { type: 'problem'; message: string }
  | ChaosBatch;
