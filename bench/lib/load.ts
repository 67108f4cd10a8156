import autocannon, { type Request } from 'autocannon';
import { timed } from './progress.js';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  seconds: number;
  body?: string;
  /** Headers of every request (e.g. content-type); setupRequest may add per-request ones. */
  headers?: Record<string, string>;
  /** Called for each request before it is sent: rotate keys, ids, paths. Rebuilds the request every time. */
  setupRequest?: (req: Request) => Request;
  /**
   * Paths to cycle through, each request built once up front: a load generator that rebuilds
   * every request (setupRequest) spends CPU this 2-core machine's server would otherwise have.
   */
  paths?: string[];
  label: string;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  /** Requests answered 2xx per second. */
  okPerSecond: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  statusCodes: Record<string, number>;
}

/** One autocannon run (programmatic API), reduced to the figures the bench reports. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const run = autocannon({
    url: o.url,
    method: o.method,
    connections: o.connections,
    duration: o.seconds,
    timeout: 10,
    headers: o.headers,
    body: o.body,
    // autocannon calls setupRequest only on entries of `requests`, not at the top level.
    ...(o.setupRequest ? { requests: [{ setupRequest: o.setupRequest }] } : {}),
    ...(o.paths ? { requests: o.paths.map((path) => ({ path })) } : {}),
  });
  const r = await timed(`${o.label} c=${o.connections}`, o.seconds, run);
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return {
    connections: o.connections,
    seconds: r.duration,
    okPerSecond: r['2xx'] / r.duration,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    p50: r.latency.p50,
    p99: r.latency.p99,
    statusCodes,
  };
}
