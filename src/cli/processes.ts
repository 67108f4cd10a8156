import type { Config } from '../config/config.js';
import type { CommandIo } from './command.js';
import { openContext, closeContext } from '../app/runtime.js';
import { migrate } from '../db/migrate.js';
import type { ApiServer } from '../app/api-server.js';
import type { Workers } from '../app/workers.js';
import { bootstrapDefaultOrg, firstOwnerSetupToken } from '../app/bootstrap.js';
import { linkUrl } from '../members/links.js';
import { resolveServices, publishServices, unpublishServices } from '../launcher/resolve-services.js';
import { checkEvictionPolicy } from '../redis/eviction-policy.js';
import { startMetricsListener, type MetricsListener } from '../metrics/metrics-listener.js';
import { loadOrCreateLocalCa } from '../tls/local-ca.js';
import { phoneReachableBase } from '../tls/lan-names.js';
import { CA_PATH } from '../tls/ca-route.js';
import { releaseHeapWhenQuiet } from '../memory/quiet-heap-release.js';

export type Role = 'all' | 'api' | 'worker';

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: string) => resolve(sig);
    process.once('SIGINT', () => on('SIGINT'));
    process.once('SIGTERM', () => on('SIGTERM'));
  });
}

function firstRunBanner(io: CommandIo, base: string, key: string): void {
  io.out('');
  io.out('Organization "default" created. Its API key (every scope), shown only this once:');
  io.out(`  ${key}`);
  io.out('');
  io.out('Pair a phone (hafatra device pair; no phone at hand: hafatra phone-sim), then send a first message:');
  io.out(`  curl -s ${base}/v1/messages -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\`);
  io.out(`    -d '{"to": "+261340000000", "body": "Salama from Hafatra"}'`);
  io.out(`Follow it:  curl -s ${base}/v1/messages -H "Authorization: Bearer ${key}"`);
  io.out('');
}

/**
 * `hafatra start` (role all: API and workers in one process, embedded Postgres and Redis unless
 * DATABASE_URL/REDIS_URL are set), `hafatra api`, `hafatra worker`. Runs until SIGINT/SIGTERM,
 * then drains: in-flight requests finish, workers stop taking work, connections close.
 */
export async function runProcess(role: Role, baseConfig: Config, io: CommandIo): Promise<number> {
  const log = (line: string) => io.err(line);
  const resolved = role === 'all' ? await resolveServices(baseConfig, log, { reuseRunning: false }) : { config: baseConfig };
  if (!resolved.config.databaseUrl || !resolved.config.redisUrl) {
    io.err('error: DATABASE_URL and REDIS_URL must be set for `hafatra api` and `hafatra worker` (use `hafatra start` for embedded ones)');
    return 2;
  }
  if ('embedded' in resolved && resolved.embedded) await publishServices(baseConfig, resolved.embedded);
  const ctx = openContext(resolved.config, role === 'worker' ? 'hafatra-worker' : 'hafatra');
  // A stray rejected promise (a Redis command cut by a reconnect, say) is logged, not fatal:
  // Node would otherwise end the process with every phone socket and request in it.
  process.on('unhandledRejection', (err) => ctx.log.error({ err }, 'unhandled rejection'));
  const heap = releaseHeapWhenQuiet(resolved.config.heapReleaseMb, ctx.log);
  let api: ApiServer | undefined;
  let workers: Workers | undefined;
  let metrics: MetricsListener | undefined;
  try {
    // The embedded Redis is started with noeviction; REDIS_URL names one configured elsewhere.
    if (baseConfig.redisUrl) await checkEvictionPolicy(ctx.redis, ctx.log);
    await migrate(ctx.db);
    const first = role === 'worker' ? null : await bootstrapDefaultOrg(ctx);
    const setupToken = role === 'worker' ? null : await firstOwnerSetupToken(ctx);
    // Each role loads only its own code: the workers' (webhook delivery through undici, parsing,
    // sweeps), loaded by every `hafatra api`, held 16 MB of its idle RSS (127 -> 111 MB).
    if (role !== 'worker') {
      const [{ startApiServer }, { apiExtensions }] = await Promise.all([import('../app/api-server.js'), import('../app/api-extensions.js')]);
      api = await startApiServer(ctx, apiExtensions(ctx));
    }
    if (role !== 'api') workers = await (await import('../app/workers.js')).startWorkers(ctx);
    if (role === 'worker' && resolved.config.metricsPort !== null) {
      metrics = await startMetricsListener(ctx, resolved.config.host, resolved.config.metricsPort);
      ctx.log.info({ port: metrics.port }, 'metrics listening');
    }
    if (api) io.out(`Hafatra ${role === 'all' ? '' : `${role} `}listening on ${resolved.config.https ? 'https' : 'http'}://${resolved.config.host}:${api.port} (OpenAPI: /openapi.json)`);
    if (first && api) firstRunBanner(io, `${resolved.config.https ? 'https' : 'http'}://localhost:${api.port}`, first.key);
    if (api) {
      const dashboard = resolved.config.publicUrl || `${resolved.config.https ? 'https' : 'http'}://localhost:${api.port}`;
      io.out(`Dashboard: ${dashboard}/`);
      if (setupToken) {
        io.out('Create the first owner of the dashboard with this one-time link (valid 24 hours):');
        io.out(`  ${linkUrl(dashboard, setupToken)}`);
      }
      if (resolved.config.https) {
        const ca = await loadOrCreateLocalCa(resolved.config.dataDir);
        io.out(`HTTPS with the local CA (SHA-256 ${ca.fingerprint}): phones install it first from`);
        io.out(`  ${phoneReachableBase(`https://localhost:${api.port}`, true)}${CA_PATH}   (docs/android-app.md)`);
      }
    }
    // Scripts (the bench, a supervisor) wait for this line: the workers are taking work.
    if (role === 'worker') io.out('Hafatra worker running: webhooks, mobile money, sweeps');
    const signal = await waitForSignal();
    io.err(`${signal}: shutting down`);
    return 0;
  } finally {
    heap.stop();
    metrics?.close();
    await api?.close();
    await workers?.close();
    await closeContext(ctx);
    if ('embedded' in resolved && resolved.embedded) {
      await unpublishServices(baseConfig);
      await resolved.embedded.stop();
    }
  }
}
