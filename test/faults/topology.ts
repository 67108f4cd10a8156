/**
 * A production-like deployment for the fault suite: its own Postgres and Redis (so stopping,
 * killing or flushing them disturbs no other test file), `hafatra api` and `hafatra worker` as
 * child processes, and an HTTPS webhook receiver the worker trusts through NODE_EXTRA_CA_CERTS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config/config.js';
import { openContext, closeContext } from '../../src/app/runtime.js';
import type { AppContext } from '../../src/context/app-context.js';
import { migrate } from '../../src/db/migrate.js';
import { pickFreePort } from '../../src/launcher/free-port.js';
import { startPostgres, type PostgresServer } from '../../src/launcher/postgres-server.js';
import { findRedisServer } from '../../src/launcher/redis-binary.js';
import { startRedis, type RedisServer } from '../../src/launcher/redis-server.js';
import { serviceUserIfRoot, type RunAs } from '../../src/launcher/service-user.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';

/** Every process of the deployment gets these (on top of the URLs and its port). */
const SUITE_SETTINGS: Record<string, string> = {
  LOG_LEVEL: 'warn',
  HAFATRA_REDIS_PREFIX: 'hf',
  HAFATRA_PG_POOL_SIZE: '10',
  // Webhooks go to the local receiver over loopback.
  HAFATRA_WEBHOOK_ALLOW_HOSTS: 'localhost',
  // A delivery cut by a worker crash is retried after its lease (timeout × rounds + 5 s) and
  // the reconcile grace: 5 s keeps that to ~15 s (production default: 10 s), and is still long
  // enough that a receiver slowed by a busy machine is not retried for being slow.
  HAFATRA_WEBHOOK_TIMEOUT_MS: '5000',
  HAFATRA_WEBHOOK_SCHEDULE_SECONDS: '0,1,1,2,2,2,2,2,2,2',
  // A phone is shown online by its socket only, not by a recent call (default 5 minutes),
  // so that presence after a crash is what the sockets say.
  HAFATRA_ONLINE_WINDOW_SECONDS: '1',
  // A dead API's phones read offline within the lease plus one sweep (PRESENCE_DEADLINE_MS).
  HAFATRA_PRESENCE_LEASE_SECONDS: '4',
  HAFATRA_SWEEP_INTERVAL_MS: '1000',
  // A phone silent this long loses its jobs not yet acknowledged `sending` to another phone, as
  // designed; the checks count a job handed to two phones all the same. The default (20 s) is
  // what an API restarted from source took on a loaded CI machine (19.6 s), so its phones'
  // jobs went to others while they waited to reconnect; no scenario here tests that rule.
  HAFATRA_SILENT_PHONE_SECONDS: '120',
};

export type Role = 'api' | 'worker';

export interface ServiceChild {
  role: Role;
  url: string;
  port: number;
  child: ChildProcess;
  /** Set once the process exited, with how. */
  exit: string | undefined;
  stderr: string[];
}

export interface Topology {
  dir: string;
  databaseUrl: string;
  redisUrl: string;
  /** A context of the test process against the suite's servers: setup and assertions. */
  ctx: AppContext;
  receiver: HttpsReceiver;
  postgres: { stop(): Promise<void>; start(): Promise<void> };
  /** Stopped with SIGTERM (it writes its append-only file and exits), started on the same port and data. */
  redis: { stop(): Promise<void>; start(): Promise<void> };
  /** Starts `hafatra <role>` and resolves once it printed its ready line. */
  spawn(role: Role, port?: number): Promise<ServiceChild>;
  kill9(service: ServiceChild): Promise<void>;
  close(): Promise<void>;
}

const READY_LINE: Record<Role, RegExp> = { api: /listening on/, worker: /worker running/ };

export async function startTopology(): Promise<Topology> {
  const dir = await mkdtemp(join(tmpdir(), 'hafatra-faults-'));
  const log = () => undefined;
  const runAs: RunAs | undefined = await serviceUserIfRoot(log);
  const [pgPort, redisPort] = await Promise.all([pickFreePort(), pickFreePort()]);
  // The launcher's readiness probe gives up on a connect that times out after 1 s (and stops
  // the server), which a machine this busy can take right after a restart: try again.
  const startPg = async (): Promise<PostgresServer> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startPostgres({ dataDir: dir, port: pgPort, runAs, log });
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
  };
  let pg: PostgresServer = await startPg();
  const redisBinary = await findRedisServer(undefined, log);
  const startRedisServer = () => startRedis({ binary: redisBinary, dataDir: dir, port: redisPort, runAs, log });
  let redis: RedisServer = await startRedisServer();
  const receiver = await startHttpsReceiver();
  const caFile = join(dir, 'receiver-ca.pem');
  await writeFile(caFile, receiver.ca);
  const ctx = openContext(loadConfig({ ...SUITE_SETTINGS, LOG_LEVEL: 'silent' }, { databaseUrl: pg.url, redisUrl: redis.url }), 'fault-suite');
  await migrate(ctx.db);
  const children = new Set<ServiceChild>();

  async function spawnService(role: Role, port?: number): Promise<ServiceChild> {
    const listen = port ?? (await pickFreePort());
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', role], {
      env: {
        ...process.env,
        ...SUITE_SETTINGS,
        DATABASE_URL: pg.url,
        REDIS_URL: redis.url,
        PORT: String(listen),
        HOST: '127.0.0.1',
        NODE_EXTRA_CA_CERTS: caFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service: ServiceChild = { role, url: `http://127.0.0.1:${listen}`, port: listen, child, exit: undefined, stderr: [] };
    children.add(service);
    child.stderr!.on('data', (chunk: Buffer) => {
      service.stderr.push(chunk.toString());
      if (service.stderr.length > 200) service.stderr.shift();
    });
    const exited = new Promise<void>((resolve) =>
      child.once('exit', (code, signal) => {
        service.exit = signal ? `killed by ${signal}` : `exit code ${code}`;
        children.delete(service);
        resolve();
      }),
    );
    const ready = new Promise<void>((resolve) =>
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (READY_LINE[role].test(line)) resolve();
      }),
    );
    const failed = exited.then(() => {
      throw new Error(`hafatra ${role} ${service.exit} before it was ready: ${service.stderr.join('').slice(-2000)}`);
    });
    await Promise.race([ready, failed]);
    return service;
  }

  return {
    dir,
    databaseUrl: pg.url,
    redisUrl: redis.url,
    ctx,
    receiver,
    postgres: {
      // Postgres's fast shutdown (SIGINT): sessions are ended with FATAL 57P01, as `pg_ctl stop -m fast`.
      stop: () => pg.stop(),
      async start() {
        pg = await startPg();
      },
    },
    redis: {
      stop: () => redis.stop(),
      async start() {
        redis = await startRedisServer();
      },
    },
    spawn: spawnService,
    async kill9(service) {
      if (service.exit) return;
      const gone = new Promise<void>((resolve) => service.child.once('exit', () => resolve()));
      service.child.kill('SIGKILL');
      await gone;
    },
    async close() {
      for (const service of [...children]) {
        const gone = new Promise<void>((resolve) => service.child.once('exit', () => resolve()));
        service.child.kill('SIGKILL');
        await gone;
      }
      await closeContext(ctx);
      await receiver.close();
      await Promise.allSettled([pg.stop(), redis.stop()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
