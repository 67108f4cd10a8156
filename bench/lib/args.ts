import { parseArgs } from 'node:util';

export interface BenchArgs {
  scenarios: string[];
  url?: string;
  keys: string[];
  deviceTokens?: string;
  quick: boolean;
  seconds?: number;
  sweep?: number[];
  sockets?: number;
  stored?: number;
  profile: boolean;
  statements: boolean;
  out: string;
  help: boolean;
}

export const USAGE = `npm run bench [-- [scenario …] [options]]

scenarios: ceilings bulk-send read fleet app-fleet fleet-chaos sockets webhooks parse dashboard-pages scheduler noisy-neighbour (default: all)

  --url URL             run against this deployment instead of a local server
  --key K[,K2,…]        API keys (with --url); several keys = several organizations for bulk-send
  --device-tokens FILE  JSON [{deviceId, token}] of phones paired in the first key's organization (fleet, fleet-chaos, sockets)
  --quick               small scale, about a second per run (CI)
  --seconds N           seconds per measured run (default 10)
  --sweep 1,4,16,32,64  connections of the concurrency sweep
  --sockets N           idle sockets of the sockets scenario (default 10000)
  --stored N            store N messages (and their timelines), spread over five months, before the local server starts
  --profile             write V8 CPU profiles and flame graphs of the local API and worker (bench/results/profiles-<timestamp>/)
  --statements          write the local Postgres's statements and Redis's commands and Lua scripts by time taken (bench/results/statements-<timestamp>.md)
  --out DIR             where result files go (default bench/results)`;

const list = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

export function parseBenchArgs(argv: string[]): BenchArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      'device-tokens': { type: 'string' },
      quick: { type: 'boolean', default: false },
      seconds: { type: 'string' },
      sweep: { type: 'string' },
      sockets: { type: 'string' },
      stored: { type: 'string' },
      profile: { type: 'boolean', default: false },
      statements: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const positive = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} takes a positive number, not ${v}`);
    return n;
  };
  const sweep = values.sweep === undefined ? undefined : list(values.sweep).map((v) => positive('sweep', v)!);
  return {
    scenarios: positionals,
    url: values.url,
    keys: list(values.key),
    deviceTokens: values['device-tokens'],
    quick: values.quick ?? false,
    seconds: positive('seconds', values.seconds),
    sweep,
    sockets: positive('sockets', values.sockets),
    stored: positive('stored', values.stored),
    profile: values.profile ?? false,
    statements: values.statements ?? false,
    out: values.out ?? new URL('../results/', import.meta.url).pathname,
    help: values.help ?? false,
  };
}
