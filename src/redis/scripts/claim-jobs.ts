import type { Redis } from '../client.js';
import { evalScript, luaScript, unexpectedReply } from './lua-scripts.js';

const script = luaScript('claimJobs');

/** The first element of lua/claimJobs-7.lua's reply. */
export const ClaimJobsCode = { claimed: 1, paced: 0, deviceStateMissing: -1, revoked: -2, notSending: -3, resting: -4 } as const;

export interface ClaimJobsKeys {
  deviceQueue: string;
  orgQueue: string;
  queueMeta: string;
  deviceState: string;
  claiming: string;
  /** The organization's sending phones by network. */
  netPhones: string;
  /** The organization's carrier prefix table, one copy for all its phones (devices/device-state.ts). */
  carrierPrefixes: string;
}

export interface ClaimJobsArgs {
  deviceId: string;
  max: number;
  now: number;
  /** `…:pace:<deviceId>:`, in the keys' hash slot. */
  pacingPrefix: string;
  /** yyyymmdd */
  utcDay: string;
  /** Entries scored at or below this are taken from both queues before the rest. */
  urgentScore: number;
  /** How long an off-net message of the organization's queue waits for a phone on its network (0: never). */
  offNetWaitMs: number;
  /** Entries scored at or below this ignore the send windows (entries.ts IGNORE_WINDOWS_LEAD_MS). */
  ignoreWindowsScore: number;
}

/**
 * Why a claimed message goes out on its SIM: the code of its `claimed` event (docs/decisions.md,
 * "Carrier-aware routing").
 */
export const SIM_CHOICES = ['sim_requested', 'sim_on_net', 'sim_default', 'on_net_sim_capped', 'off_net_after_wait'] as const;
export type SimChoice = (typeof SIM_CHOICES)[number];

/** A message handed to the phone: its dispatch JSON as queued, the SIM it goes out on (-1: the phone's choice) and why. */
export interface ClaimedMessage {
  id: string;
  meta: string;
  sim: number;
  why: SimChoice;
}

export type ClaimJobsResult =
  /** retryAfterMs > 0 when pacing, an off-net wait or the send windows held some messages back. */
  | { kind: 'claimed'; claimed: ClaimedMessage[]; retryAfterMs: number }
  /** Nothing claimed: the phone's last 60 s hold its pacing until retryAfterMs, when the oldest parts leave. */
  | { kind: 'paced'; retryAfterMs: number }
  /** The device's state (or its organization's prefix table) is not in Redis: load it from Postgres and call again. */
  | { kind: 'deviceStateMissing' }
  | { kind: 'revoked' }
  /** Outbound disabled or draining. */
  | { kind: 'notSending' }
  /** Battery low and not charging, or no service (devices/device-state.ts isResting). */
  | { kind: 'resting' };

/** Hands queued messages to one phone (lua/claimJobs-7.lua). */
export async function claimJobs(redis: Redis, keys: ClaimJobsKeys, args: ClaimJobsArgs): Promise<ClaimJobsResult> {
  const reply = (await evalScript(
    redis,
    script,
    [keys.deviceQueue, keys.orgQueue, keys.queueMeta, keys.deviceState, keys.claiming, keys.netPhones, keys.carrierPrefixes],
    [args.deviceId, args.max, args.now, args.pacingPrefix, args.utcDay, args.urgentScore, args.offNetWaitMs, args.ignoreWindowsScore],
  )) as (string | number)[];
  switch (reply[0]) {
    case ClaimJobsCode.claimed: {
      const claimed: ClaimedMessage[] = [];
      for (let i = 2; i < reply.length; i += 4) claimed.push({ id: String(reply[i]), meta: String(reply[i + 1]), sim: Number(reply[i + 2]), why: reply[i + 3] as SimChoice });
      return { kind: 'claimed', claimed, retryAfterMs: Number(reply[1]) };
    }
    case ClaimJobsCode.paced:
      return { kind: 'paced', retryAfterMs: Number(reply[1]) };
    case ClaimJobsCode.deviceStateMissing:
      return { kind: 'deviceStateMissing' };
    case ClaimJobsCode.revoked:
      return { kind: 'revoked' };
    case ClaimJobsCode.notSending:
      return { kind: 'notSending' };
    case ClaimJobsCode.resting:
      return { kind: 'resting' };
    default:
      throw unexpectedReply(script, reply);
  }
}
