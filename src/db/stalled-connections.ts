import type pg from 'pg';

/** What this watchdog reads of a pg client: the statement it waits on (null while idle). */
type WatchedClient = pg.PoolClient & { _activeQuery?: object | null };

/**
 * Gives up on a connection whose server stopped answering (host gone, network cut, a frozen
 * Postgres): once one statement has been waiting `limitMs` with no answer, the connection is
 * closed, the statement fails with pg's "Connection terminated" and the pool drops the client.
 * A live server answers by then or cancels the statement itself (statement_timeout).
 *
 * One sweep a second per pool, in place of pg's `query_timeout`, which starts a timer with every
 * statement. With those timers the statements' rows outlived young-generation collections (what
 * survived was mostly the pages' rows), and the API spent three times as long collecting: the
 * list of 100 at 64 connections, scavenges of 6.3 against 2.0 ms, 2.5 against 0.5 MB surviving
 * each (bench/README.md).
 * A statement is given up between `limitMs` and `limitMs + 2 * sweepMs` after it was sent.
 */
export function giveUpOnStalledConnections(pool: pg.Pool, limitMs: number, sweepMs = 1_000): void {
  const clients = new Map<WatchedClient, { statement: object | null; since: number }>();
  let sweep: NodeJS.Timeout | undefined;
  const check = () => {
    const now = performance.now();
    for (const [client, seen] of clients) {
      const statement = client._activeQuery ?? null;
      if (statement !== seen.statement) {
        seen.statement = statement;
        seen.since = now;
      } else if (statement !== null && now - seen.since >= limitMs) {
        clients.delete(client);
        (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      }
    }
  };
  pool.on('connect', (client) => {
    clients.set(client as WatchedClient, { statement: null, since: performance.now() });
    sweep ??= setInterval(check, sweepMs).unref();
  });
  pool.on('remove', (client) => {
    clients.delete(client as WatchedClient);
    if (clients.size === 0 && sweep) {
      clearInterval(sweep);
      sweep = undefined;
    }
  });
}
