import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestTallies } from '../../src/infrastructure/request-tallies.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];

/** The exposition's sample lines, in a stable order: what Prometheus reads does not depend on it. */
const samples = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.replace(/\{(.*)\}/, (_, labels: string) => `{${labels.split(',').sort().join(',')}}`))
    .sort();

describe('HTTP request tallies on /metrics', () => {
  it('write the samples that prom-client writes for the same requests', async () => {
    const ours = new Registry();
    const tallies = new RequestTallies(ours, BOUNDS);
    const theirs = new Registry();
    const counter = new Counter({ registers: [theirs], name: 'hafatra_http_requests_total', help: 'x', labelNames: ['route', 'method', 'status'] });
    const histogram = new Histogram({ registers: [theirs], name: 'hafatra_http_request_duration_seconds', help: 'x', labelNames: ['route', 'method'], buckets: BOUNDS });
    const requests: [string, string, number, number][] = [
      ['/v1/messages', 'POST', 202, 0.0004],
      ['/v1/messages', 'POST', 202, 0.001],
      ['/v1/messages', 'POST', 429, 0.02],
      ['/v1/messages/:id', 'GET', 200, 0.5],
      ['/v1/messages/:id', 'GET', 404, 3],
      ['/v1/messages/:id', 'DELETE', 404, 0.0001],
    ];
    for (const [route, method, status, seconds] of requests) {
      tallies.record(route, method, status, seconds);
      counter.inc({ route, method, status });
      histogram.observe({ route, method }, seconds);
    }
    const written = samples(await ours.metrics());
    expect(written).toEqual(samples(await theirs.metrics()));
    expect(written).toContain('hafatra_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v1/messages/:id"} 2');
    expect(written).toContain('hafatra_http_requests_total{method="POST",route="/v1/messages",status="202"} 2');
  });

  it('start again from nothing when the registry is reset', async () => {
    const registry = new Registry();
    const tallies = new RequestTallies(registry, BOUNDS);
    tallies.record('/healthz', 'GET', 200, 0.0001);
    registry.resetMetrics();
    expect(samples(await registry.metrics())).toEqual([]);
  });
});
