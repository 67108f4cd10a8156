/**
 * The /device/v1 wire types as a phone sees them. Type-only imports from the server's schemas keep
 * the client and the server in lockstep without pulling server code into the client.
 */
import type { Job } from '../dispatch-queue/job.js';
import type { StatusReport } from '../dispatch/schemas.js';
import type { Heartbeat } from '../devices/schemas.js';
import type { IncomingSms } from '../incoming/schemas.js';
import type { ClockSkewWarning } from '../time/phone-clock.js';

export type { Job, StatusReport, Heartbeat, IncomingSms };

export const SOCKET_PATH = '/device/v1/socket';
export const PAIR_PATH = '/device/v1/pair';
/** The server closes a revoked phone's socket with this code, after a `revoked` frame. */
export const CLOSE_REVOKED = 4001;
/** The server closes a socket with this code when the same device opened a newer one. */
export const CLOSE_REPLACED = 4000;

export type InboundCapability = { state: 'unlocked' } | { state: 'locked'; reason: string };

export interface HeartbeatAck {
  serverTime: string;
  inbound: InboundCapability;
  warning?: ClockSkewWarning;
}

export interface ClaimAck {
  jobs: Job[];
  /** Set when pacing held messages back: when claiming again can give more. */
  retryAfterMs?: number;
}

export interface StatusAck {
  messageId: string;
  status: string;
  duplicate?: true;
  warning?: ClockSkewWarning;
}

export interface IncomingAck {
  clientId: string;
  incomingId: string | null;
  /** A part of a concatenated SMS waiting for its siblings. */
  pending?: true;
  warning?: ClockSkewWarning;
}

export interface PairRequest {
  code: string;
  name?: string;
  model?: string;
  appVersion?: string;
}

export interface PairResult {
  deviceId: string;
  token: string;
}

/** Server → phone frames. */
export type ServerFrame =
  | { type: 'jobs'; jobs: Job[] }
  | { type: 'ack'; ref: string; [field: string]: unknown }
  | { type: 'error'; ref: string | null; code: string; message: string }
  | { type: 'revoked'; reason: string }
  /** Jobs the server took back before this phone acknowledged `sending`: drop them unsent. */
  | { type: 'withdrawn'; messageIds: string[] };

/**
 * An `error` frame (or refused HTTP call) from the server. `code` is the protocol's:
 * unauthorized, no_session, invalid_transition, inbound_locked, invalid_request, ... plus two of
 * the client's own: `closed` (close() was called before the ack came) and `revoked`.
 */
export class DeviceProtocolError extends Error {
  override name = 'DeviceProtocolError';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
