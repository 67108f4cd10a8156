/**
 * Embedded Postgres and Redis for `hafatra start` and the test suite, as child
 * processes with their data under one directory.
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
}

export async function startEmbeddedServices(opts: EmbeddedServicesOptions): Promise<EmbeddedServices> {
  const started = Date.now();
  const log = opts.log ?? (() => undefined);
  const dataDir = resolve(opts.dataDir);
  await mkdir(dataDir, { recursive: true });
  const redisBinary = await findRedisServer(opts.redisServerPath, log);
  const runAs = await serviceUserIfRoot(log);
  const [postgresPort, redisPort] = await Promise.all([
    opts.postgresPort ?? pickFreePort(),
    opts.redisPort ?? pickFreePort(),
  ]);
  const [postgres, redis] = await Promise.allSettled([
    startPostgres({ dataDir, port: postgresPort, runAs, log }),
    startRedis({ binary: redisBinary, dataDir, port: redisPort, runAs, log }),
  ]);
  if (postgres.status === 'rejected' || redis.status === 'rejected') {
    await stopAll([postgres, redis].flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])));
    throw postgres.status === 'rejected' ? postgres.reason : (redis as PromiseRejectedResult).reason;
  }
  log(`postgres on 127.0.0.1:${postgresPort} and redis on 127.0.0.1:${redisPort} ready in ${Date.now() - started} ms (data in ${dataDir})`);
  let stopping: Promise<void> | undefined;
  return {
    databaseUrl: postgres.value.url,
    redisUrl: redis.value.url,
    stop: () => (stopping ??= stopAll([postgres.value, redis.value])),
  };
}

async function stopAll(servers: Array<PostgresServer | RedisServer>): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
}
