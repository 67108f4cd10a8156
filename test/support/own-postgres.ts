import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres, type PostgresServer } from '../../src/launcher/postgres-server.js';
import { pickFreePort } from '../../src/launcher/free-port.js';
import { serviceUserIfRoot } from '../../src/launcher/service-user.js';
import { createDb } from '../../src/db/pool.js';
import { migrate } from '../../src/db/migrate.js';

/**
 * A Postgres of the test's own (the shared one serves every test file and must stay up), with the
 * launcher of `hafatra start`, migrated, on a fixed port and data directory so that it can be
 * stopped, killed and started again at the same URL.
 */
export interface OwnPostgres {
  url: string;
  /** pg_ctl stop -m fast: open transactions roll back, clients get FATAL 57P01. */
  stopFast(): Promise<void>;
  /** kill -9 of the postmaster; its backends notice and exit. */
  kill9(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  destroy(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-own-pg-'));
  const port = await pickFreePort();
  const log = () => undefined;
  const runAs = await serviceUserIfRoot(log);
  let server: PostgresServer = await startPostgres({ dataDir, port, runAs, log });
  const db = createDb(server.url, 1);
  await migrate(db);
  await db.end();
  const postmasterPid = async () => Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  return {
    url: server.url,
    stopFast: () => server.stop(),
    async kill9() {
      const pid = await postmasterPid();
      process.kill(pid, 'SIGKILL');
      // Reaps it and disarms the launcher's watchdog; nothing is left to stop.
      await server.stop();
    },
    async start() {
      server = await startPostgres({ dataDir, port, runAs, log });
    },
    async destroy() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
