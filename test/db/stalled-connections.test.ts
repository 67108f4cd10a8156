import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, inTransaction, type Db } from '../../src/db/pool.js';
import { isStorageUnavailable } from '../../src/errors/storage-unavailable.js';
import { testDatabaseUrl } from '../support/database.js';

/**
 * A Postgres that stops answering without closing the connection (host gone, network cut, a
 * frozen server): a statement sent to it is given up, its connection dropped, and the pool
 * serves again through a new one. A proxy between the pool and the server stands for the
 * network: frozen, it passes nothing either way and closes nothing.
 */
const STATEMENT_TIMEOUT_MS = 300;
const MARGIN_MS = 200;

class FreezableProxy {
  readonly server: net.Server;
  private frozen = false;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  constructor(target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(target);
      const pair: [net.Socket, net.Socket] = [client, upstream];
      this.pairs.add(pair);
      const close = () => {
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
      client.on('data', (d) => this.frozen || upstream.write(d));
      upstream.on('data', (d) => this.frozen || client.write(d));
    });
  }
  listen(): Promise<number> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as net.AddressInfo).port)));
  }
  freeze(frozen: boolean): void {
    this.frozen = frozen;
  }
  get connections(): number {
    return this.pairs.size;
  }
  close(): void {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.server.close();
  }
}

let proxy: FreezableProxy;
let db: Db;

beforeAll(async () => {
  const url = new URL(testDatabaseUrl());
  proxy = new FreezableProxy({ host: url.hostname, port: Number(url.port) });
  url.hostname = '127.0.0.1';
  url.port = String(await proxy.listen());
  db = createDb(url.toString(), 2, { statementTimeoutMs: STATEMENT_TIMEOUT_MS, giveUpMarginMs: MARGIN_MS });
});

afterAll(async () => {
  await db?.end();
  proxy?.close();
});

const backendPid = async (q: { query: Db['query'] }) => ((await q.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number }).pid;

describe('a server that stops answering', () => {
  it('fails the statement within a bounded time as storage unavailable, and serves again through a new connection', async () => {
    const before = await backendPid(db);
    proxy.freeze(true);
    const started = performance.now();
    const err = await db.query('SELECT 1').then(
      () => undefined,
      (e: unknown) => e,
    );
    const waited = performance.now() - started;
    proxy.freeze(false);
    expect(isStorageUnavailable(err)).toBe(true);
    // Given up between the limit and two sweeps (1 s each) past it.
    expect(waited).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS + MARGIN_MS - 50);
    expect(waited).toBeLessThan(STATEMENT_TIMEOUT_MS + MARGIN_MS + 3_000);
    await expect.poll(() => backendPid(db), { timeout: 5_000 }).not.toBe(before);
  });

  it('fails a transaction and does not give its connection back to the pool', async () => {
    await backendPid(db);
    const client = await db.connect();
    const pid = await backendPid(client);
    client.release();
    const err = await inTransaction(db, async (tx) => {
      proxy.freeze(true);
      await tx.query('SELECT 1');
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    proxy.freeze(false);
    expect(isStorageUnavailable(err)).toBe(true);
    expect(db.totalCount).toBeLessThanOrEqual(1);
    const pids = await Promise.all([backendPid(db), backendPid(db)]);
    expect(pids).not.toContain(pid);
  });
});

describe('a server that answers', () => {
  it('keeps a connection that runs statement after statement for longer than the limit', async () => {
    const client = await db.connect();
    try {
      const pid = await backendPid(client);
      const until = performance.now() + 2 * (STATEMENT_TIMEOUT_MS + MARGIN_MS) + 1_000;
      while (performance.now() < until) await client.query('SELECT pg_sleep(0.05)');
      expect(await backendPid(client)).toBe(pid);
    } finally {
      client.release();
    }
  });
});
