/**
 * Embedded Postgres and Redis for `hafatra start` and the test suite, as child
 * processes with everything under one directory: postgres/ (the cluster),
 * redis/ (append-only file), postgres.log, redis.log, and hafatra.pid, which
 * claims the directory for one hafatra process at a time.
 *
 * Why root needs a separate user: Postgres refuses to run as root (a superuser
 * SQL session could otherwise run anything on the box as root, e.g. through
 * COPY ... PROGRAM), and CI and containers run as root. So when we are root,
 * both servers run as the unprivileged system user 'hafatra' (created on first
 * use), which owns <dataDir>/postgres and <dataDir>/redis; every ancestor
 * directory it cannot traverse (such as /root) gets o+x so it can reach them.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { lockDataDir } from './data-dir-lock.js';
import { pickFreePort } from './free-port.js';
import { startPostgres, type PostgresServer } from './postgres-server.js';
import { findRedisServer } from './redis-binary.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { serviceUserIfRoot } from './service-user.js';

export interface EmbeddedServices {
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

export interface EmbeddedServicesOptions {
  /** Postgres data in <dataDir>/postgres, Redis in <dataDir>/redis, logs beside them. */
  dataDir: string;
  /** Default: a free port picked at start. */
  postgresPort?: number;
  /** Default: a free port picked at start. */
  redisPort?: number;
  /** The redis-server binary. Default: the one on PATH (installed with apt-get when missing, as root on Debian/Ubuntu). */
  redisServerPath?: string;
  /** One-line progress messages for the user. Default: nothing. */
  log?: (line: string) => void;
  /** Postgres settings beyond ours (postgres-server.ts), e.g. the bench's `--statements`. */
  postgresSettings?: Record<string, string>;
}

export async function startEmbeddedServices(opts: EmbeddedServicesOptions): Promise<EmbeddedServices> {
  const started = Date.now();
  const log = opts.log ?? (() => undefined);
  const dataDir = resolve(opts.dataDir);
  const redisBinary = await findRedisServer(opts.redisServerPath, log);
  await mkdir(dataDir, { recursive: true });
  const unlock = await lockDataDir(dataDir);
  const servers = await startServers(dataDir, redisBinary, opts, log).catch(async (err: unknown) => {
    await unlock();
    throw err;
  });
  log(`postgres (${servers.postgres.url.replace(/\/\/.*@/, '//')}) and redis (${servers.redis.url}) ready in ${Date.now() - started} ms, data in ${dataDir}`);
  let stopping: Promise<void> | undefined;
  return {
    databaseUrl: servers.postgres.url,
    redisUrl: servers.redis.url,
    stop: () => (stopping ??= stopAll([servers.postgres, servers.redis]).then(unlock)),
  };
}

/** Starts both at once; if either fails, stops the other and throws. */
async function startServers(dataDir: string, redisBinary: string, opts: EmbeddedServicesOptions, log: (line: string) => void): Promise<{ postgres: PostgresServer; redis: RedisServer }> {
  const runAs = await serviceUserIfRoot(log);
  const [postgresPort, redisPort] = await Promise.all([opts.postgresPort ?? pickFreePort(), opts.redisPort ?? pickFreePort()]);
  const [postgres, redis] = await Promise.allSettled([
    startPostgres({ dataDir, port: postgresPort, runAs, log, ...(opts.postgresSettings ? { settings: opts.postgresSettings } : {}) }),
    startRedis({ binary: redisBinary, dataDir, port: redisPort, runAs, log }),
  ]);
  if (postgres.status === 'fulfilled' && redis.status === 'fulfilled') return { postgres: postgres.value, redis: redis.value };
  await stopAll([postgres, redis].flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])));
  throw postgres.status === 'rejected' ? postgres.reason : (redis as PromiseRejectedResult).reason;
}

async function stopAll(servers: Array<PostgresServer | RedisServer>): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
}
