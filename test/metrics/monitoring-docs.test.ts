import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';

/**
 * The shipped alert rules and Grafana dashboard (docs/monitoring/) may only name metrics that
 * GET /metrics exports: a renamed metric would otherwise leave an alert that never fires.
 */
const TOKEN = 'monitoring-docs-token-0123456789';
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ metricsToken: TOKEN });
});
afterAll(() => app.close());

/** Metric families of a scrape (the `# TYPE` lines), with a histogram's series names. */
async function exported(): Promise<Set<string>> {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  const names = new Set<string>();
  for (const [, name, type] of (await res.text()).matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

/** Every metric name an expression in the file uses. */
const metricNames = (text: string) => new Set([...text.matchAll(/\b((?:hafatra|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1]!));

it('names only exported metrics in the alert rules and the dashboard, and the dashboard is valid JSON', async () => {
  const names = await exported();
  const alerts = await readFile('docs/monitoring/alerts.yml', 'utf8');
  const dashboardText = await readFile('docs/monitoring/grafana-dashboard.json', 'utf8');
  const dashboard = JSON.parse(dashboardText) as { panels: { targets: { expr: string }[] }[] };
  expect(dashboard.panels.length).toBeGreaterThan(5);
  const used = new Set([...metricNames(alerts), ...metricNames(dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join('\n'))]);
  expect(used.size).toBeGreaterThan(8);
  expect([...used].filter((n) => !names.has(n))).toEqual([]);
  expect((alerts.match(/^\s+- alert: /gm) ?? []).length).toBeGreaterThanOrEqual(8);
});
