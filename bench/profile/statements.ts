// `--statements`: what Postgres and Redis spent their time on during a local run, statement by
// statement and script by script (bench/README.md, "Postgres and Redis by time taken"). CPU
// profiles show the API and the worker, not the two servers where a message's writes cost most.
// Postgres counts with pg_stat_statements (loaded at start: the local target starts it with
// POSTGRES_SETTINGS); Redis with its command statistics, and its slow log for the time of each
// Lua script (EVALSHA names only the script's sha, which loadLuaScripts maps to its file).
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadLuaScripts } from '../../src/redis/scripts/lua-scripts.js';

/** Postgres settings that make it count its statements (nested ones too: triggers' statements). */
export const POSTGRES_SETTINGS = { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' };

/** Script calls faster than this are left out of the slow log, and so of the scripts' table. */
const DEFAULT_SLOWER_THAN_US = 10;
const SLOW_LOG_ENTRIES = 200_000;
const TOP = 25;

/** A connection to each server for `use`, both closed after it. */
async function withServers<T>(databaseUrl: string, redisUrl: string, use: (db: pg.Client, redis: Redis) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: databaseUrl });
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    await db.connect();
    return await use(db, redis);
  } finally {
    redis.disconnect();
    await db.end();
  }
}

/** Counts from zero from here on: what set-up (migrations, fixtures) cost is left out. */
export async function startCounting(databaseUrl: string, redisUrl: string, slowerThanUs = DEFAULT_SLOWER_THAN_US): Promise<void> {
  await withServers(databaseUrl, redisUrl, async (c, r) => {
    await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await c.query('SELECT pg_stat_statements_reset()');
    await r.config('SET', 'slowlog-log-slower-than', String(slowerThanUs));
    await r.config('SET', 'slowlog-max-len', String(SLOW_LOG_ENTRIES));
    await r.call('SLOWLOG', 'RESET');
    await r.config('RESETSTAT');
  });
}

interface StatementRow {
  calls: string;
  rows: string;
  ms: number;
  wal: string;
  query: string;
}

const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
const fixed = (n: number, digits = 1) => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const whole = (n: number | string) => Number(n).toLocaleString('en');

async function postgresTable(db: pg.Client): Promise<string[]> {
  const { rows } = await db.query<StatementRow>(
    `SELECT calls, rows, total_exec_time AS ms, wal_records AS wal, query FROM pg_stat_statements
     WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT ${TOP}`,
  );
  const total = rows.reduce((sum, r) => sum + r.ms, 0);
  return [
    `## Postgres: the ${TOP} statements that took longest`,
    '',
    `Execution time, summed over calls (a statement's time includes the triggers it fired, whose own statements are listed too). ${fixed(total / 1000, 2)} s in these ${rows.length}.`,
    '',
    '| ms | calls | rows | µs per row | WAL records | statement |',
    '| ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (r) => `| ${fixed(r.ms)} | ${whole(r.calls)} | ${whole(r.rows)} | ${Number(r.rows) > 0 ? fixed((r.ms * 1000) / Number(r.rows)) : ''} | ${whole(r.wal)} | \`${cell(r.query).slice(0, 200)}\` |`,
    ),
  ];
}

/** `cmdstat_<name>:calls=…,usec=…,…` lines of INFO commandstats. */
function commandStats(info: string): { name: string; calls: number; usec: number }[] {
  return [...info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)].map((m) => ({ name: m[1]!, calls: Number(m[2]), usec: Number(m[3]) }));
}

/** Each Lua script's sha1 (what EVALSHA names) to its file's name. */
function scriptNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of loadLuaScripts().values()) names.set(createHash('sha1').update(s.lua).digest('hex'), s.name);
  return names;
}

async function redisTables(r: Redis): Promise<string[]> {
  const info = await r.info('commandstats');
  const slow = (await r.call('SLOWLOG', 'GET', '-1')) as [number, number, number, string[]][];
  const slowerThan = ((await r.config('GET', 'slowlog-log-slower-than')) as string[])[1];
  const commands = commandStats(info).sort((a, b) => b.usec - a.usec);
  const names = scriptNames();
  const scripts = new Map<string, { calls: number; usec: number }>();
  for (const [, , usec, args] of slow) {
    const command = args[0]?.toLowerCase();
    if (command !== 'evalsha' && command !== 'eval') continue;
    const name = command === 'evalsha' ? (names.get(args[1] ?? '') ?? `sha ${args[1]?.slice(0, 8)}`) : 'EVAL (script text sent)';
    const s = scripts.get(name) ?? { calls: 0, usec: 0 };
    s.calls += 1;
    s.usec += usec;
    scripts.set(name, s);
  }
  const full = slow.length >= SLOW_LOG_ENTRIES ? ` The slow log filled up (${whole(SLOW_LOG_ENTRIES)} entries): the earliest calls are missing.` : '';
  return [
    '## Redis: commands',
    '',
    "Time in each command, from its statistics: a command a Lua script runs counts here too, so a script's time is its evalsha line's, and the commands under it show what it spent that on.",
    '',
    '| ms | calls | µs per call | command |',
    '| ---: | ---: | ---: | --- |',
    ...commands.slice(0, 15).map((c) => `| ${fixed(c.usec / 1000)} | ${whole(c.calls)} | ${fixed(c.usec / c.calls)} | ${c.name} |`),
    '',
    '## Redis: Lua scripts',
    '',
    `Calls that took ${slowerThan} µs or more, from the slow log.${full}`,
    '',
    '| ms | calls | µs per call | script |',
    '| ---: | ---: | ---: | --- |',
    ...[...scripts.entries()].sort((a, b) => b[1].usec - a[1].usec).map(([name, s]) => `| ${fixed(s.usec / 1000)} | ${whole(s.calls)} | ${fixed(s.usec / s.calls)} | ${name} |`),
  ];
}

/** Writes the Markdown report of what was counted since startCounting. */
export async function writeStatementsReport(databaseUrl: string, redisUrl: string, file: string): Promise<void> {
  const tables = await withServers(databaseUrl, redisUrl, async (db, redis) => [...(await postgresTable(db)), '', ...(await redisTables(redis))]);
  const lines = ['# Where Postgres and Redis spent their time', '', ...tables, ''];
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, lines.join('\n'));
}
