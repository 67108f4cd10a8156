import { join } from 'node:path';
import pg from 'pg';
import { ensureNoLiveOwner } from './pid-file.js';
import { prepareCluster, SUPERUSER } from './postgres-cluster.js';
import { findPostgresBinaries } from './postgres-binaries.js';
import { waitUntilReady } from './readiness.js';
import { startService } from './service-process.js';
import { makeReachable, type RunAs } from './service-user.js';

export const DATABASE_NAME = 'hafatra';

export interface PostgresServer {
  url: string;
  stop(): Promise<void>;
}

export interface PostgresServerOptions {
  dataDir: string;
  port: number;
  runAs: RunAs | undefined;
  log: (line: string) => void;
  /** Server settings added to (or overriding) ours, e.g. a bench's statistics extension. */
  settings?: Record<string, string>;
}

/** Settings applied at every start, so existing clusters pick up changes too. */
function serverSettings(port: number, extra: Record<string, string> = {}): string[] {
  const settings: Record<string, string> = {
    port: String(port),
    listen_addresses: '127.0.0.1',
    // TCP only: no socket file to collide with another Postgres or to outgrow the path limit.
    unix_socket_directories: '',
    max_connections: '200',
    shared_buffers: '256MB',
    work_mem: '8MB',
    // Short OLTP queries only pay JIT's compile cost.
    jit: 'off',
    // Durability stays as Postgres ships it: fsync, synchronous_commit and full_page_writes on.
    fsync: 'on',
    lc_messages: 'C',
    // A new 16 MB WAL segment is made under the WAL write lock, so every commit waits while it
    // is filled with zeros, seen in a fleet run as 202 -> jobs spikes. Unfilled (as for
    // copy-on-write file systems) that wait is short; fdatasync still persists the blocks each
    // commit writes. Figures: bench/README.md, "Measurements behind the code".
    wal_init_zero: 'off',
    // A checkpoint forced by WAL volume (1 GB by default: about 1.5M sent messages) flushes and
    // fsyncs the data files while sends keep coming; its sync phase held commits back, and
    // bulk-send's tail latency with them (bench/README.md). Checkpoints then come
    // every 5 minutes; the WAL may take up to ~4 GB of disk during long bursts.
    max_wal_size: '4GB',
    // Backends writing out dirty buffers ask the kernel to write them back every 256 kB, as the
    // background writer and checkpointer already do: otherwise up to ~700 MB sat dirty in the
    // page cache and went out in bursts that commits waited behind (docs/decisions.md).
    backend_flush_after: '256kB',
    ...extra,
  };
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}

export async function startPostgres(opts: PostgresServerOptions): Promise<PostgresServer> {
  const bins = await findPostgresBinaries();
  const clusterDir = join(opts.dataDir, 'postgres');
  if (opts.runAs) {
    await makeReachable(bins.postgres, opts.runAs, opts.log);
    await makeReachable(clusterDir, opts.runAs, opts.log);
  }
  const password = await prepareCluster(clusterDir, bins, opts.runAs, opts.log);
  await ensureNoLiveOwner({ pidFile: join(clusterDir, 'postmaster.pid'), program: 'postgres', dir: clusterDir, waitMs: 10_000, log: opts.log });
  const service = await startService({
    name: 'postgres',
    command: bins.postgres,
    args: ['-D', clusterDir, ...serverSettings(opts.port, opts.settings)],
    logFile: join(opts.dataDir, 'postgres.log'),
    runAs: opts.runAs,
    env: { ...process.env, LC_ALL: 'C' },
    // Fast shutdown: rolls back open transactions, checkpoints, exits within a second or two.
    stopSignal: 'SIGINT',
  });
  const url = (database: string): string => `postgres://${SUPERUSER}:${password}@127.0.0.1:${opts.port}/${database}`;
  const admin = await waitUntilReady(service, () => connectWhenReady(url('postgres')), 60_000);
  try {
    await ensureDatabase(admin, DATABASE_NAME);
  } catch (err) {
    await service.stop(30_000);
    throw err;
  } finally {
    await admin.end().catch(() => undefined);
  }
  return { url: url(DATABASE_NAME), stop: () => service.stop(30_000) };
}

/** Errors that only mean "still starting up". */
const NOT_READY = new Set(['ECONNREFUSED', 'ECONNRESET', '57P03']);

async function connectWhenReady(url: string): Promise<pg.Client | undefined> {
  // The timeout keeps a probe from hanging on a port some other program answers.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.end().catch(() => undefined);
    if (NOT_READY.has((err as { code?: string }).code ?? '')) return undefined;
    throw err;
  }
}

async function ensureDatabase(client: pg.Client, name: string): Promise<void> {
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
}
