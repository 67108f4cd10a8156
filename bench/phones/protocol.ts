/** Messages between the bench and its phone-fleet process (IPC). */
import type { PhoneCredential } from '../target/target.js';

export interface FleetStart {
  type: 'start';
  /** ws(s)://host:port/device/v1/socket */
  socketUrl: string;
  phones: PhoneCredential[];
  /** idle: hold the socket and heartbeat; work: take every job through sending → sent → delivered. */
  mode: 'idle' | 'work';
  /** Sockets opened at once. */
  batch: number;
  heartbeatMs: number;
}

export type FleetEvent =
  | { type: 'progress'; connected: number; failed: number }
  | { type: 'ready'; connected: number; failed: number; firstError?: string }
  /** [messageId, wall-clock ms] of each job frame entry as it reached the phone. */
  | { type: 'jobs'; items: Array<[string, number]> }
  | { type: 'delivered'; items: Array<[string, number]> }
  | { type: 'problem'; message: string };
