import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRedisServer } from '../../src/launcher/redis-binary.js';
import { startRedisCluster, type RedisCluster } from '../../src/launcher/redis-cluster.js';
import { serviceUserIfRoot } from '../../src/launcher/service-user.js';

/** Three masters with a replica each on loopback, from the redis-server `hafatra start` runs; removed with its files on stop. */
export async function startTestRedisCluster(opts: { nodeTimeoutMs?: number } = {}): Promise<RedisCluster> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-test-cluster-'));
  const log = () => undefined;
  const cluster = await startRedisCluster({
    binary: await findRedisServer(undefined, log),
    dataDir,
    runAs: await serviceUserIfRoot(log),
    log,
    masters: 3,
    replicasPerMaster: 1,
    ...opts,
  });
  return {
    ...cluster,
    async stop() {
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
