import type { Registry } from 'prom-client';

/** One route pattern and method: answers by status, and durations by bucket (not cumulative here). */
interface Tally {
  byStatus: Map<number, number>;
  inBucket: number[];
  sum: number;
  count: number;
}

interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * hafatra_http_requests_total and hafatra_http_request_duration_seconds, counted in plain maps
 * and written out when /metrics is read. prom-client's Counter and Histogram validate and hash
 * their labels on every call: 3% of the API's CPU answering GET /v1/messages/{id}
 * (bench/README.md). A request here costs three map lookups and four additions.
 */
export class RequestTallies {
  private readonly routes = new Map<string, Map<string, Tally>>();

  constructor(
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    const counter = { name: 'hafatra_http_requests_total', help: 'HTTP requests answered, by route pattern, method and status.', type: 'counter' as const };
    const histogram = { name: 'hafatra_http_request_duration_seconds', help: 'Time from request to answer, by route pattern and method.', type: 'histogram' as const };
    // The registry reads a metric through get() and reset() alone (prom-client's Registry).
    const metric = (m: typeof counter | typeof histogram, values: () => Sample[]) => ({ ...m, get: async () => ({ ...m, values: values(), aggregator: 'sum' }), reset: () => this.routes.clear() });
    registry.registerMetric(metric(counter, () => this.counts()) as unknown as Parameters<Registry['registerMetric']>[0]);
    registry.registerMetric(metric(histogram, () => this.durations()) as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  record(route: string, method: string, status: number, seconds: number): void {
    let methods = this.routes.get(route);
    if (methods === undefined) this.routes.set(route, (methods = new Map()));
    let tally = methods.get(method);
    if (tally === undefined) methods.set(method, (tally = { byStatus: new Map(), inBucket: this.bounds.map(() => 0), sum: 0, count: 0 }));
    tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
    // A sample counts in the first bucket whose bound it does not pass (Prometheus's `le`).
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    if (i < this.bounds.length) tally.inBucket[i]!++;
    tally.sum += seconds;
    tally.count++;
  }

  private counts(): Sample[] {
    const out: Sample[] = [];
    for (const [route, methods] of this.routes) {
      for (const [method, tally] of methods) for (const [status, n] of tally.byStatus) out.push({ labels: { route, method, status }, value: n });
    }
    return out;
  }

  private durations(): Sample[] {
    const out: Sample[] = [];
    const name = 'hafatra_http_request_duration_seconds';
    for (const [route, methods] of this.routes) {
      for (const [method, tally] of methods) {
        let below = 0;
        this.bounds.forEach((le, i) => {
          below += tally.inBucket[i]!;
          out.push({ metricName: `${name}_bucket`, labels: { le, route, method }, value: below });
        });
        out.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', route, method }, value: tally.count });
        out.push({ metricName: `${name}_sum`, labels: { route, method }, value: tally.sum });
        out.push({ metricName: `${name}_count`, labels: { route, method }, value: tally.count });
      }
    }
    return out;
  }
}
