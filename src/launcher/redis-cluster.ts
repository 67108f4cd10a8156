import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Redis as SingleRedis } from 'ioredis';
import { signalRedisServer, startRedis, type RedisServer, type RedisServerOptions } from './redis-server.js';

const run = promisify(execFile);

export interface ClusterNode {
  port: number;
  /** kill -9: the node ends at once; its replica is promoted after cluster-node-timeout. */
  kill9(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: a replica frozen while its master takes writes lags behind it. */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
}

export interface RedisCluster {
  /** `redis+cluster://127.0.0.1:p1,...`: what REDIS_URL takes. */
  url: string;
  nodes: ClusterNode[];
  /** The node serving `slot` as master now (a killed master's replica after a failover). */
  masterOf(slot: number): Promise<ClusterNode>;
  /** The replicas of a master, as the master sees them. */
  replicasOf(master: ClusterNode): Promise<ClusterNode[]>;
  stop(): Promise<void>;
}

export interface RedisClusterOptions extends Omit<RedisServerOptions, 'port' | 'extraArgs' | 'dataDir'> {
  dataDir: string;
  masters: number;
  replicasPerMaster: number;
  /** How long a silent master has before its replica takes over. */
  nodeTimeoutMs?: number;
}

/**
 * A port whose cluster bus port (port + 10000) is free as well, both below the kernel's range of
 * ports for outgoing connections: one there, free when checked, was taken by a connection before
 * the node bound it (CI: "bind: Address already in use" on a bus port).
 */
async function pickClusterPort(): Promise<number> {
  const highest = Math.min(30_000, (await firstEphemeralPort()) - 10_001);
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * (highest - 10_000));
    if ((await isFree(port)) && (await isFree(port + 10_000))) return port;
  }
}

/** The first port Linux hands to outgoing connections (32768 by default, and where it cannot be read). */
async function firstEphemeralPort(): Promise<number> {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  const first = Number(range.trim().split(/\s+/)[0]);
  return Number.isInteger(first) && first > 21_000 ? first : 32_768;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A Redis Cluster on loopback from the same redis-server as `hafatra start` runs (tests, the
 * bench's loopback setup): `masters` masters with `replicasPerMaster` replicas each, joined by
 * redis-cli --cluster create, returned once every slot is served and every node says ok.
 */
export async function startRedisCluster(opts: RedisClusterOptions): Promise<RedisCluster> {
  const count = opts.masters * (1 + opts.replicasPerMaster);
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await pickClusterPort();
    if (!ports.includes(port)) ports.push(port);
  }
  const nodes = ports.map((port) => clusterNode(opts, port));
  await Promise.all(nodes.map((n) => n.start()));
  const cli = join(dirname(opts.binary), 'redis-cli');
  await run(cli, ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(opts.replicasPerMaster), '--cluster-yes'], { timeout: 60_000 });
  await Promise.all(ports.map((p) => waitClusterOk(p)));
  // A replica that has not finished its first sync has no data to take over with: it never would.
  await Promise.all(ports.map((p) => waitReplicaInSync(p)));
  return {
    url: `redis+cluster://${ports.map((p) => `127.0.0.1:${p}`).join(',')}`,
    nodes,
    async masterOf(slot) {
      for (const node of nodes) {
        const shards = await clusterSlots(node.port).catch(() => null);
        const owner = shards?.find(([from, to]) => slot >= from && slot <= to);
        if (owner) return nodes.find((n) => n.port === owner[2])!;
      }
      throw new Error(`no node serves slot ${slot}`);
    },
    async replicasOf(master) {
      const lines = String(await onNode(master.port, (r) => r.cluster('NODES'))).split('\n');
      const id = lines.find((l) => l.includes('myself'))?.split(' ')[0];
      const ports = lines.filter((l) => l.split(' ')[3] === id).map((l) => Number(/:(\d+)@/.exec(l)?.[1]));
      return nodes.filter((n) => ports.includes(n.port));
    },
    async stop() {
      await Promise.allSettled(nodes.map((n) => n.stop()));
    },
  };
}

function clusterNode(opts: RedisClusterOptions, port: number): ClusterNode {
  const dataDir = join(opts.dataDir, `node-${port}`);
  let server: RedisServer | null = null;
  const signal = (name: NodeJS.Signals) => signalRedisServer(dataDir, name);
  const serverOptions: RedisServerOptions = {
    ...opts,
    dataDir,
    port,
    extraArgs: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(opts.nodeTimeoutMs ?? 2_000)],
  };
  return {
    port,
    async start() {
      server = await startRedis(serverOptions);
    },
    async stop() {
      await server?.stop();
      server = null;
    },
    async kill9() {
      await signal('SIGKILL');
      await server?.stop();
      server = null;
    },
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
  };
}

async function onNode<T>(port: number, work: (redis: SingleRedis) => Promise<T>): Promise<T> {
  const redis = new SingleRedis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}

/** [first slot, last slot, master port] of every slot range, as one node sees them. */
async function clusterSlots(port: number): Promise<[number, number, number][]> {
  const reply = await onNode(port, (r) => r.cluster('SLOTS'));
  return reply.map(([from, to, master]) => [from, to, master![1]]);
}

function waitClusterOk(port: number): Promise<void> {
  return waitFor(port, 'cluster state ok', async (r) => String(await r.cluster('INFO')).includes('cluster_state:ok'));
}

function waitReplicaInSync(port: number): Promise<void> {
  return waitFor(port, 'replica in sync', async (r) => {
    const info = await r.info('replication');
    return info.includes('role:master') || info.includes('master_link_status:up');
  });
}

async function waitFor(port: number, what: string, check: (redis: SingleRedis) => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await onNode(port, check).catch(() => false)) return;
    if (Date.now() > until) throw new Error(`Redis Cluster node ${port}: no ${what} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
