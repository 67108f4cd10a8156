import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureNoLiveOwner } from './pid-file.js';
import { waitUntilReady } from './readiness.js';
import { pingRedis } from './redis-ping.js';
import { startService } from './service-process.js';
import { ensureOwnedBy, makeReachable, type RunAs } from './service-user.js';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  binary: string;
  dataDir: string;
  port: number;
  runAs: RunAs | undefined;
  log: (line: string) => void;
  /** More settings, e.g. a cluster node's (src/launcher/redis-cluster.ts). */
  extraArgs?: string[];
}

/**
 * Everything on the command line and no config file: Redis reads a config file
 * only when given one, so a Debian-packaged redis-server ignores /etc/redis, and
 * `supervised no` keeps it from talking to systemd.
 */
function serverArgs(redisDir: string, port: number): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--protected-mode',
    'yes',
    '--dir',
    redisDir,
    '--pidfile',
    join(redisDir, 'redis-server.pid'),
    '--daemonize',
    'no',
    '--supervised',
    'no',
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    // A rewrite serializes the whole dataset (the dispatch queues: ~350 bytes a queued message)
    // on a core for seconds, then its file is written back. At the default 100% it comes at
    // every doubling of the log; at 400% a burst of sends pays a quarter of that (docs/decisions.md).
    '--auto-aof-rewrite-percentage',
    '400',
    '--maxmemory-policy',
    'noeviction',
    '--save',
    '',
  ];
}

export async function startRedis(opts: RedisServerOptions): Promise<RedisServer> {
  const redisDir = join(opts.dataDir, 'redis');
  await mkdir(redisDir, { recursive: true, mode: 0o700 });
  if (opts.runAs) {
    await makeReachable(redisDir, opts.runAs, opts.log);
    await ensureOwnedBy(redisDir, opts.runAs);
  }
  await ensureNoLiveOwner({ pidFile: join(redisDir, 'redis-server.pid'), program: 'redis-server', dir: redisDir, waitMs: 10_000, log: opts.log });
  const { NOTIFY_SOCKET: _systemdOnly, ...env } = process.env;
  const service = await startService({
    name: 'redis-server',
    command: opts.binary,
    args: [...serverArgs(redisDir, opts.port), ...(opts.extraArgs ?? [])],
    logFile: join(opts.dataDir, 'redis.log'),
    runAs: opts.runAs,
    env,
    // Redis flushes the append-only file and exits on SIGTERM, like SHUTDOWN.
    stopSignal: 'SIGTERM',
  });
  const probe = async (): Promise<true | undefined> => ((await pingRedis(opts.port)) === 'pong' ? true : undefined);
  await waitUntilReady(service, probe, 60_000);
  return { url: `redis://127.0.0.1:${opts.port}`, stop: () => service.stop(30_000) };
}

/**
 * Sends a signal to the redis-server serving `dataDir` (through its pid file: the server may run
 * as another user, under a wrapper): SIGKILL to crash it, SIGSTOP/SIGCONT to freeze and thaw it.
 */
export async function signalRedisServer(dataDir: string, signal: NodeJS.Signals): Promise<void> {
  process.kill(Number((await readFile(join(dataDir, 'redis', 'redis-server.pid'), 'utf8')).trim()), signal);
}
