import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pickFreePort } from '../../src/launcher/free-port.js';

/**
 * Real `hafatra api` and `hafatra worker` processes sharing one Postgres, one Redis and one key
 * prefix, as a production deployment of several nodes does. No vitest here: the bench's loopback
 * cluster (bench/loopback-cluster.ts) starts its nodes with it too.
 */

export type NodeRole = 'api' | 'worker';

/** What every node of a deployment shares. redisUrl may name a cluster (`redis+cluster://…`). */
export interface SharedStores {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** More settings for every process (HAFATRA_…). */
  env?: Record<string, string>;
}

export interface HafatraNode {
  role: NodeRole;
  /** The API's port; for a worker, its metrics port (HAFATRA_METRICS_PORT). */
  port: number;
  url: string;
  child: ChildProcess;
  /** Resolves once the process has exited, however. */
  exited: Promise<void>;
  /** The last of its stderr, for a failing test's message. */
  stderr(): string;
  /** kill -9: the process ends at once, whatever it was doing (a crash). */
  kill9(): Promise<void>;
  /** SIGTERM: the API drains (HAFATRA_DRAIN_SECONDS), then stops; resolves without waiting for the exit. */
  sigterm(): void;
}

const ENTRY = fileURLToPath(new URL('../../src/cli/entry.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const READY_TIMEOUT_MS = 90_000;

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

async function readyz(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/readyz`);
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Resolves once `ready` is true, rejects if the process exits first or READY_TIMEOUT_MS passes. */
async function waitReady(node: HafatraNode, ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await ready())) {
    if (!running(node.child)) throw new Error(`hafatra ${node.role} exited before it was ready: ${node.stderr()}`);
    if (Date.now() > deadline) throw new Error(`hafatra ${node.role} not ready within ${READY_TIMEOUT_MS} ms: ${node.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts one node and resolves once it is ready: an API answering /readyz 200, a worker taking work. */
export async function startNode(role: NodeRole, stores: SharedStores): Promise<HafatraNode> {
  const port = await pickFreePort();
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, role], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ...stores.env,
      DATABASE_URL: stores.databaseUrl,
      REDIS_URL: stores.redisUrl,
      HAFATRA_REDIS_PREFIX: stores.redisPrefix,
      HOST: '127.0.0.1',
      ...(role === 'api' ? { PORT: String(port) } : { HAFATRA_METRICS_PORT: String(port) }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let workerRunning = false;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (/worker running/.test(line)) workerRunning = true;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const node: HafatraNode = {
    role,
    port,
    url,
    child,
    exited,
    stderr: () => stderr,
    async kill9() {
      if (running(child)) child.kill('SIGKILL');
      await exited;
    },
    sigterm() {
      if (running(child)) child.kill('SIGTERM');
    },
  };
  try {
    await waitReady(node, role === 'api' ? () => readyz(url) : () => workerRunning);
  } catch (err) {
    await node.kill9(); // else it outlives the test run
    throw err;
  }
  return node;
}

export interface Nodes {
  apis: HafatraNode[];
  workers: HafatraNode[];
  /** Every node still running, killed (tests need no drain on the way out). */
  stop(): Promise<void>;
}

/** `api` API processes and `worker` worker processes on the same stores, started side by side. */
export async function startNodes(stores: SharedStores, counts: { api: number; worker: number }): Promise<Nodes> {
  const started = await Promise.allSettled([...Array.from({ length: counts.api }, () => startNode('api', stores)), ...Array.from({ length: counts.worker }, () => startNode('worker', stores))]);
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.kill9()));
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { apis: nodes.filter((n) => n.role === 'api'), workers: nodes.filter((n) => n.role === 'worker'), stop };
}
