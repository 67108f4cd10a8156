import { defineConfig } from 'vitest/config';

/**
 * The long end-to-end files (bench, fault suite, browser journey, launcher, fleet and phone CLI,
 * slow readers, many nodes behind nginx): `npm test` runs them with the rest; `npm run test:fast` skips them locally.
 */
const SLOW = [
  'test/bench/**',
  'test/faults/**',
  'test/browser/**',
  'test/launcher/**',
  'test/phone/fleet.test.ts',
  'test/phone/phone-sim-cli.test.ts',
  'test/http/slow-readers.test.ts',
  'test/messages/idempotency-crash.test.ts',
  'test/webhooks/throughput.test.ts',
  'test/cluster/many-nodes.test.ts',
].map((glob) => (glob.endsWith('**') ? `${glob}/*.test.ts` : glob));

/**
 * Suites that run a second time against a Redis Cluster (three masters with a replica each,
 * test/support/global-setup.ts): dispatch, idempotency, limits, webhooks, recovery, workers at
 * any count (sweeps, webhook relay, mobile-money reader). Their keys are hash-tagged so every
 * script and transaction touches one slot; a cross-slot one fails here.
 */
const ON_CLUSTER = [
  'test/lua/**',
  'test/dispatch/claim.test.ts',
  'test/dispatch/claim-recovery.test.ts',
  'test/dispatch/two-processes.test.ts',
  'test/mobile-api/two-processes.test.ts',
  'test/dispatch/withdrawal.test.ts',
  'test/dispatch/lifecycle.test.ts',
  'test/dispatch-queue/**',
  'test/messages/idempotency.test.ts',
  'test/messages/daily-limit.test.ts',
  'test/api/auth.test.ts',
  'test/webhooks/delivery.test.ts',
  'test/webhooks/recovery.test.ts',
  'test/devices/revoke.test.ts',
  'test/scheduling/**',
  'test/mobile-money/integration/workers.test.ts',
  'test/workers/**',
].map((glob) => (glob.endsWith('**') ? `${glob}/*.test.ts` : glob));

/**
 * The TypeScript and Python clients and the MCP server, each against a real Hafatra with a
 * simulated phone, and the check that they follow the OpenAPI document: the `clients` project
 * (`npx vitest run --project clients`).
 */
const CLIENTS = ['test/clients/**/*.test.ts'];

/** Files about the cluster itself (a master killed mid-run): the `cluster` project only. */
const ON_CLUSTER_ONLY = ['test/redis-cluster/**/*.test.ts'];

// Files share one Postgres and one Redis and isolate themselves by organization and key
// prefix, so they run side by side: most of a file's time is spent waiting on sockets and
// timers, not on a core. HAFATRA_TEST_WORKERS lowers it on a smaller machine.
const workers = Number(process.env.HAFATRA_TEST_WORKERS ?? 3);

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/file-database.ts'],
    testTimeout: 30_000,
    // expect.poll waits on what a page or a process shows; under a busy machine that takes more
    // than vitest's default second.
    expect: { poll: { timeout: 20_000, interval: 50 } },
    hookTimeout: 120_000,
    // The `hafatra` processes tests spawn inherit this: a SIGTERM stops them at once, without the
    // production drain (test/health/health.test.ts drives a drain of its own).
    env: { HAFATRA_DRAIN_SECONDS: '0' },
    pool: 'forks',
    maxWorkers: workers,
    // The server's code, as the tests drive it in this process (the spawned `hafatra` processes of
    // the launcher, fault and browser tests are not measured). The thresholds sit one point under
    // the level measured when they were set (lines 94.4, statements 91.8, functions 91.9,
    // branches 84.3 percent, 27 November 2026): some paths (a retry, a reconnect) are taken on one run and not the
    // next, and that must not flip CI. Raise them as coverage rises; never lower them.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'artifacts/coverage',
      thresholds: { lines: 93, statements: 90, functions: 90, branches: 83 },
    },
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...SLOW, ...ON_CLUSTER_ONLY, ...CLIENTS] } },
      { extends: true, test: { name: 'clients', include: CLIENTS } },
      { extends: true, test: { name: 'slow', include: SLOW } },
      { extends: true, test: { name: 'cluster', include: [...ON_CLUSTER, ...ON_CLUSTER_ONLY] } },
    ],
  },
});
