import type { LoadResult } from '../lib/load.js';

/** What the bench tells the noise process (bench/scenarios/noise-process.ts). */
export interface NoiseStart {
  url: string;
  /** The noisy organization's API key. */
  key: string;
  /** A device token of a phone of a third organization. */
  phoneToken: string;
  seconds: number;
  connections: number;
}

export interface PhoneFlood {
  framesSent: number;
  rateLimited: number;
  closedForFlooding: number;
}

/** What it answers: `started` once the noise is under way, then `result` once its run time is over. */
export type NoiseEvent = { type: 'started' } | ({ type: 'result' } & NoiseResult);

export interface NoiseResult {
  sender: LoadResult;
  anonymous: LoadResult;
  phone: PhoneFlood;
  /** CPU seconds the noise process itself used: on a machine shared with the server, taken from it. */
  cpuSeconds: number;
}
