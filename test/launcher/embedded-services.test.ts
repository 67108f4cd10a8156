import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServices, type EmbeddedServices } from '../../src/launcher/embedded-services.js';
import { pickFreePort } from '../../src/launcher/free-port.js';
import { acceptsConnections, portOf, portsCloseWithin } from './ports.js';

let dataDir: string;
const running: EmbeddedServices[] = [];

async function start(dir: string, log?: (line: string) => void): Promise<EmbeddedServices> {
  const services = await startEmbeddedServices({ dataDir: dir, ...(log ? { log } : {}) });
  running.push(services);
  return services;
}

async function withPg<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function withRedis<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

async function uidOfProcess(pid: string | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
}

/** Starts the services in another Node process, which prints their URLs once ready. */
async function startFixture(dir: string): Promise<{ child: ChildProcess; urls: { databaseUrl: string; redisUrl: string } }> {
  const fixture = fileURLToPath(new URL('./fixtures/start-and-wait.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir], { stdio: ['pipe', 'pipe', 'ignore'] });
  const firstLine = new Promise<string>((resolve, reject) => {
    if (child.stdout) createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fixture exited (code ${code}) before printing its URLs`)));
  });
  return { child, urls: JSON.parse(await firstLine) as { databaseUrl: string; redisUrl: string } };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hafatra-launcher-'));
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((services) => services.stop()));
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('startEmbeddedServices', () => {
  it('serves a hafatra database and a durable Redis, keeps both across a restart, and frees the ports on stop', async () => {
    const dir = join(dataDir, 'restart');
    const firstLog: string[] = [];
    const first = await start(dir, (line) => firstLog.push(line));
    expect(firstLog.join('\n')).toMatch(/initialising a new Postgres cluster/);
    expect(firstLog.at(-1)).toMatch(/ready in \d+ ms/);
    expect(new URL(first.databaseUrl).pathname).toBe('/hafatra');

    await withPg(first.databaseUrl, async (db) => {
      expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect((await db.query('SHOW max_connections')).rows[0].max_connections).toBe('200');
      expect((await db.query('SHOW fsync')).rows[0].fsync).toBe('on');
      expect((await db.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('on');
      // New WAL segments are not zero-filled under the WAL write lock (docs/decisions.md).
      expect((await db.query('SHOW wal_init_zero')).rows[0].wal_init_zero).toBe('off');
      expect((await db.query('SHOW max_wal_size')).rows[0].max_wal_size).toBe('4GB');
      expect((await db.query('SHOW backend_flush_after')).rows[0].backend_flush_after).toBe('256kB');
      await db.query('CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL)');
      await db.query("INSERT INTO note VALUES (1, 'Manao ahoana')");
    });
    await withRedis(first.redisUrl, async (redis) => {
      expect(await redis.ping()).toBe('PONG');
      expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await redis.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
      expect(await redis.config('GET', 'save')).toEqual(['save', '']);
      // Fewer rewrites of a large queue log (docs/decisions.md).
      expect(await redis.config('GET', 'auto-aof-rewrite-percentage')).toEqual(['auto-aof-rewrite-percentage', '400']);
      expect(await redis.config('GET', 'bind')).toEqual(['bind', '127.0.0.1']);
      await redis.set('greeting', 'salama');
    });

    const firstPorts = [portOf(first.databaseUrl), portOf(first.redisUrl)];
    await first.stop();
    await first.stop(); // idempotent
    expect(await Promise.all(firstPorts.map(acceptsConnections))).toEqual([false, false]);

    const secondLog: string[] = [];
    const second = await start(dir, (line) => secondLog.push(line));
    expect(secondLog.join('\n')).not.toMatch(/initialising/);
    await withPg(second.databaseUrl, async (db) => {
      expect((await db.query('SELECT body FROM note WHERE id = 1')).rows).toEqual([{ body: 'Manao ahoana' }]);
    });
    await withRedis(second.redisUrl, async (redis) => {
      expect(await redis.get('greeting')).toBe('salama');
    });
  });

  it('uses the ports it is given', async () => {
    const [postgresPort, redisPort] = [await pickFreePort(), await pickFreePort()];
    const services = await startEmbeddedServices({ dataDir: join(dataDir, 'ports'), postgresPort, redisPort });
    running.push(services);
    expect([portOf(services.databaseUrl), portOf(services.redisUrl)]).toEqual([postgresPort, redisPort]);
    await withPg(services.databaseUrl, (db) => db.query('SELECT 1'));
  });

  it('starts over a stale postmaster.pid whose pid now belongs to another program', async () => {
    const dir = join(dataDir, 'stale');
    await (await start(dir)).stop();
    // A pid that is alive but is not postgres: this very test process.
    await writeFile(join(dir, 'postgres', 'postmaster.pid'), `${process.pid}\n${join(dir, 'postgres')}\n`);
    const log: string[] = [];
    const services = await start(dir, (line) => log.push(line));
    expect(log.join('\n')).toMatch(/removing stale .*postmaster\.pid/);
    await withPg(services.databaseUrl, (db) => db.query('SELECT 1'));
  });

  it('refuses at once a data directory this process already serves, and leaves that instance alone', async () => {
    const dir = join(dataDir, 'busy');
    const owner = await start(dir);
    const begun = Date.now();
    await expect(startEmbeddedServices({ dataDir: dir })).rejects.toThrow(/is in use by another hafatra \(pid \d+\): stop it first/);
    expect(Date.now() - begun).toBeLessThan(2_000);
    await withPg(owner.databaseUrl, (db) => db.query('SELECT 1'));
    await withRedis(owner.redisUrl, async (redis) => expect(await redis.ping()).toBe('PONG'));
  });

  it('refuses a data directory another hafatra process serves, then takes it over once that process is killed', async () => {
    const dir = join(dataDir, 'taken-over');
    const { child, urls } = await startFixture(dir);
    await expect(startEmbeddedServices({ dataDir: dir })).rejects.toThrow(`is in use by another hafatra (pid ${child.pid})`);
    await withPg(urls.databaseUrl, (db) => db.query('CREATE TABLE survivor (id int)'));

    // Killed, and gone: a killed process stays in the table until its parent (this test) reaps it.
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
    const services = await start(dir);
    await withPg(services.databaseUrl, async (db) => {
      expect((await db.query('SELECT count(*)::int AS n FROM survivor')).rows).toEqual([{ n: 0 }]);
    });
  });

  it('says in one line how to install redis-server when it is missing, before starting anything', async () => {
    const dir = join(dataDir, 'no-redis');
    const attempt = startEmbeddedServices({ dataDir: dir, redisServerPath: '/nonexistent/redis-server' });
    const error = await attempt.then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error?.message).toMatch(/^redis-server not found at \/nonexistent\/redis-server: install it with .+/);
    expect(error?.message).not.toContain('\n');
    await expect(readFile(join(dir, 'postgres', 'PG_VERSION'))).rejects.toThrow(/ENOENT/);
  });

  it('reports why Postgres died at startup and does not leave Redis running', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const postgresPort = (taken.address() as { port: number }).port;
    const redisPort = await pickFreePort();
    try {
      await expect(startEmbeddedServices({ dataDir: join(dataDir, 'port-taken'), postgresPort, redisPort })).rejects.toThrow(
        /postgres exited during startup \(exit code 1\); see .*postgres\.log, which ends: .*could not create any TCP\/IP sockets/,
      );
      expect(await acceptsConnections(redisPort)).toBe(false);
    } finally {
      taken.close();
    }
  });

  it('refuses a non-empty postgres directory that holds no cluster rather than overwriting it', async () => {
    const dir = join(dataDir, 'not-a-cluster');
    await mkdir(join(dir, 'postgres'), { recursive: true });
    await writeFile(join(dir, 'postgres', 'notes.txt'), 'mine');
    await expect(startEmbeddedServices({ dataDir: dir })).rejects.toThrow(/holds no Postgres cluster/);
    expect(await readFile(join(dir, 'postgres', 'notes.txt'), 'utf8')).toBe('mine');
  });

  it.each([
    ['is SIGKILLed', (child: ChildProcess) => child.kill('SIGKILL')],
    ['exits without calling stop()', (child: ChildProcess) => child.stdin?.write('exit\n')],
    ['crashes on an uncaught exception', (child: ChildProcess) => child.stdin?.write('crash\n')],
  ])('stops both servers when the Node process that started them %s', async (_how, end) => {
    const { child, urls } = await startFixture(join(dataDir, 'orphan'));
    const ports = [portOf(urls.databaseUrl), portOf(urls.redisUrl)];
    expect(await Promise.all(ports.map(acceptsConnections))).toEqual([true, true]);

    end(child);
    expect(await portsCloseWithin(ports, 10_000)).toBe(true);
  });

  it.runIf(process.getuid?.() === 0)('as root, runs the servers as the hafatra user even under a directory only root can enter', async () => {
    const privateParent = join(dataDir, 'root-only');
    await mkdir(privateParent, { mode: 0o700 });
    await chmod(privateParent, 0o700);
    const log: string[] = [];
    const services = await start(join(privateParent, 'data'), (line) => log.push(line));
    expect(log.join('\n')).toContain(`allowing user 'hafatra' to traverse ${privateParent}`);
    await withPg(services.databaseUrl, (db) => db.query('SELECT 1'));
    const postmasterPid = (await readFile(join(privateParent, 'data', 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0];
    const redisPid = (await readFile(join(privateParent, 'data', 'redis', 'redis-server.pid'), 'utf8')).trim();
    const uids = await Promise.all([postmasterPid, redisPid].map(uidOfProcess));
    const hafatraUid = (await stat(join(privateParent, 'data', 'postgres', 'PG_VERSION'))).uid;
    expect(hafatraUid).not.toBe(0);
    expect(uids).toEqual([hafatraUid, hafatraUid]);
  });
});
