/** How long and how wide each scenario runs: the full bench, or --quick (CI: seconds, small scale). */
export interface RunSettings {
  quick: boolean;
  /** Seconds of each measured autocannon run. */
  seconds: number;
  /** Connections of the concurrency sweep. */
  sweep: number[];
  /** Idle phone sockets held by the sockets scenario. */
  sockets: number;
  /** CPU of the API process (and of the hello-world ceiling); the bench client runs on the other. */
  apiCpu: number;
  clientCpu: number;
}

export function runSettings(quick: boolean, overrides: Partial<RunSettings> = {}): RunSettings {
  const base: RunSettings = quick
    ? { quick, seconds: 1, sweep: [1, 4], sockets: 100, apiCpu: 0, clientCpu: 1 }
    : { quick, seconds: 10, sweep: [1, 4, 16, 32, 64], sockets: 10_000, apiCpu: 0, clientCpu: 1 };
  return { ...base, ...overrides };
}
