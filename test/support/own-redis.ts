import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signalRedisServer, startRedis, type RedisServer } from '../../src/launcher/redis-server.js';
import { findRedisServer } from '../../src/launcher/redis-binary.js';
import { pickFreePort } from '../../src/launcher/free-port.js';
import { serviceUserIfRoot } from '../../src/launcher/service-user.js';

/** A redis-server of the test's own (the shared one serves every test file), restartable at the same URL with its data. */
export interface OwnRedis {
  url: string;
  /** SIGTERM: Redis flushes its append-only file and exits. */
  stop(): Promise<void>;
  kill9(): Promise<void>;
  /** SIGSTOP / SIGCONT: connections stay open and nothing answers, as behind a network cut. */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-own-redis-'));
  const port = await pickFreePort();
  const log = () => undefined;
  const options = { binary: await findRedisServer(undefined, log), dataDir, port, runAs: await serviceUserIfRoot(log), log };
  let server: RedisServer = await startRedis(options);
  const signal = (name: NodeJS.Signals) => signalRedisServer(dataDir, name);
  return {
    url: server.url,
    stop: () => server.stop(),
    async kill9() {
      await signal('SIGKILL');
      await server.stop();
    },
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    async start() {
      server = await startRedis(options);
    },
    async destroy() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
