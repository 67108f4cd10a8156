import type { AppContext } from '../../src/context/app-context.js';

export interface PgOutage {
  /** Queries refused since the outage began. */
  refused: number;
  end(): void;
}

/**
 * Makes one app's Postgres pools fail every query and checkout, as they do while the server is
 * unreachable, until end(). The Postgres server is shared by every test file, so stopping it
 * is not an option; the pools are this app's alone. Queries already running finish.
 */
export function breakPostgres(ctx: AppContext): PgOutage {
  const outage: PgOutage = { refused: 0, end: () => {} };
  const restores = [ctx.db, ctx.hotDb].map((pool) => {
    const p = pool as unknown as Record<'query' | 'connect', unknown>;
    const refuse = (...args: unknown[]) => {
      outage.refused += 1;
      const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432 (test outage)'), { code: 'ECONNREFUSED' });
      const callback = args.find((a) => typeof a === 'function') as ((e: Error) => void) | undefined;
      if (callback) return void setImmediate(() => callback(err));
      return Promise.reject(err);
    };
    p.query = refuse;
    p.connect = refuse;
    // The pool's own methods live on its prototype: deleting the overrides brings them back.
    return () => {
      delete (p as Partial<typeof p>).query;
      delete (p as Partial<typeof p>).connect;
    };
  });
  outage.end = () => {
    for (const restore of restores) restore();
  };
  return outage;
}
