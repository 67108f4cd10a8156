import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedServices } from '../../src/launcher/embedded-services.js';
import { pickFreePort } from '../../src/launcher/free-port.js';
import { benchEnv } from './api-env.js';
import { loadConfig } from '../../src/config/config.js';
import { openContext, closeContext } from '../../src/app/runtime.js';
import { createDevCertificate, DEFAULT_DEV_NAMES } from '../../src/webhooks/delivery/dev-certificate.js';
import { note } from '../lib/progress.js';
import { collectCpuProfiles, cpuProfileFlags } from '../profile/process-profiles.js';
import { hafatraCommand, pinned, runHafatra, startChild, waitForHttp, waitForOutput, type Child } from './processes.js';
import { createPhoneGroups, createTenants } from './local-fixtures.js';
import { seedStoredMessages } from './stored-messages.js';
import { POSTGRES_SETTINGS, startCounting, writeStatementsReport } from '../profile/statements.js';
import type { Target } from './target.js';

export interface LocalOptions {
  /** Write V8 CPU profiles of the API and worker processes into this directory (api.cpuprofile, worker.cpuprofile, on exit). */
  cpuProfileDir?: string;
  /** CPU the API process is pinned to; the load generator takes another. */
  apiCpu: number;
  /** Messages to store before the API starts (`--stored N`). */
  stored?: number;
  /** Write what Postgres and Redis spent their time on to this file, on close (`--statements`). */
  statementsFile?: string;
  /** Run fleet-chaos's short withdrawal timers (set when fleet-chaos is among the scenarios). */
  shortWithdrawalTimers?: boolean;
}

/**
 * A whole Hafatra on this machine: embedded Postgres and Redis in a temporary data directory,
 * `hafatra api` pinned to its own CPU, `hafatra worker` beside it, both as separate processes
 * that reach the services through DATABASE_URL/REDIS_URL like a production split.
 */
export async function startLocalTarget(opts: LocalOptions): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-bench-'));
  note(`local server: embedded Postgres and Redis in ${dataDir}`);
  const services = await startEmbeddedServices({ dataDir, ...(opts.statementsFile ? { postgresSettings: POSTGRES_SETTINGS } : {}) });
  const receiverCert = createDevCertificate({ names: DEFAULT_DEV_NAMES });
  const caFile = join(dataDir, 'receiver-ca.pem');
  await writeFile(caFile, receiverCert.cert);
  const port = await pickFreePort();
  const env: NodeJS.ProcessEnv = {
    ...benchEnv(services, port),
    // Withdrawal timers short enough for fleet-chaos to see silent and limited phones within a
    // minute (production: 60 s claim timeout, 20 s silence, 60 s cool-down, 5 s sweep), only when
    // it runs: the sweeps every 500 ms cost the other scenarios ten times production's sweep
    // queries (the silence sweep alone 5–15 ms of Postgres a call during the fleet), which
    // aa25be5's bench, older than fleet-chaos, never paid.
    ...(opts.shortWithdrawalTimers ? { HAFATRA_CLAIM_TIMEOUT_SECONDS: '5', HAFATRA_SILENT_PHONE_SECONDS: '3', HAFATRA_LIMIT_COOLDOWN_SECONDS: '5', HAFATRA_SWEEP_INTERVAL_MS: '500' } : {}),
    HAFATRA_WEBHOOK_ALLOW_HOSTS: 'localhost,127.0.0.1',
    NODE_EXTRA_CA_CERTS: caFile,
  };
  const children: Child[] = [];
  const ctx = openContext(loadConfig({ LOG_LEVEL: 'silent' }, { databaseUrl: services.databaseUrl, redisUrl: services.redisUrl }), 'bench');
  const close = async () => {
    for (const c of children.reverse()) await c.stop();
    if (opts.cpuProfileDir) await collectCpuProfiles(opts.cpuProfileDir).catch(() => undefined);
    if (opts.statementsFile) {
      await writeStatementsReport(services.databaseUrl, services.redisUrl, opts.statementsFile).catch((err: unknown) =>
        note(`statements not written: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
    await closeContext(ctx).catch(() => undefined);
    await services.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await runHafatra(['migrate'], env);
    const stored = opts.stored ? await seedStoredMessages(ctx, services.databaseUrl, opts.stored) : undefined;
    // Counted from the API's start: the migrations and the stored messages are set-up.
    if (opts.statementsFile) await startCounting(services.databaseUrl, services.redisUrl);
    const profile = (name: string) => (opts.cpuProfileDir ? cpuProfileFlags(opts.cpuProfileDir, name) : []);
    const apiProc = startChild(pinned(opts.apiCpu, [...hafatraCommand(profile('api')), 'api']), env, 'hafatra api');
    children.push(apiProc);
    await waitForHttp(`http://127.0.0.1:${port}/openapi.json`, apiProc);
    // Scenarios start once the worker takes work: its start-up is not what the webhooks measure.
    const workerProc = startChild([...hafatraCommand(profile('worker')), 'worker'], env, 'hafatra worker');
    children.push(workerProc);
    await waitForOutput(workerProc, /worker running/);
    note(`local server: api on http://127.0.0.1:${port} (pid ${apiProc.proc.pid}), worker started`);
    return {
      kind: 'local',
      url: `http://127.0.0.1:${port}`,
      apiPid: apiProc.proc.pid,
      databaseUrl: services.databaseUrl,
      redisUrl: services.redisUrl,
      receiverCert,
      ...(stored ? { stored } : {}),
      tenants: (count, o) => createTenants(ctx, count, o?.dailyLimit),
      phoneGroups: (orgs, perOrg) => createPhoneGroups(ctx, orgs, perOrg),
      appPhoneGroups: (orgs, perOrg) => createPhoneGroups(ctx, orgs, perOrg, 'mobile'),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
