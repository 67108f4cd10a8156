import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_SETTINGS, startCounting, writeStatementsReport } from '../../bench/profile/statements.js';
import { startEmbeddedServices, type EmbeddedServices } from '../../src/launcher/embedded-services.js';
import { createRedis } from '../../src/redis/connection.js';
import { revokedPhones } from '../../src/redis/scripts/revoked-phones.js';

let dir: string;
let services: EmbeddedServices;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'statements-'));
  services = await startEmbeddedServices({ dataDir: join(dir, 'services'), postgresSettings: POSTGRES_SETTINGS });
}, 120_000);

afterAll(async () => {
  await services?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The cells of the Markdown table row whose last cell contains `text`. */
function rowOf(section: string, text: string): string[] | undefined {
  const line = section.split('\n').find((l) => l.startsWith('|') && l.split('|').at(-2)!.includes(text));
  return line
    ?.split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

describe('bench --statements', () => {
  it("reports Postgres's statements and Redis's commands and Lua scripts run after counting started, by name", async () => {
    const client = new pg.Client({ connectionString: services.databaseUrl });
    await client.connect();
    const redis = createRedis(services.redisUrl);
    try {
      const prefix = 'hf:{o:org_test}:dev:';
      // Set-up, left out: a statement, and the script's first call (which loads it into Redis).
      await client.query('SELECT count(*) FROM generate_series(1, 7) AS set_up_only');
      await revokedPhones(redis, { deviceStatePrefix: prefix }, { deviceIds: [] });
      await startCounting(services.databaseUrl, services.redisUrl, 0);
      for (let i = 0; i < 3; i++) await client.query('SELECT count(*) FROM generate_series(1, $1) AS counted', [1000]);
      await redis.hset(`${prefix}dev_a`, 'revoked', '1');
      expect(await revokedPhones(redis, { deviceStatePrefix: prefix }, { deviceIds: ['dev_a', 'dev_b'] })).toEqual([true, false]);
      expect(await revokedPhones(redis, { deviceStatePrefix: prefix }, { deviceIds: ['dev_b'] })).toEqual([false]);
    } finally {
      await client.end();
      redis.disconnect();
    }

    const file = join(dir, 'out', 'statements.md');
    await writeStatementsReport(services.databaseUrl, services.redisUrl, file);
    const report = await readFile(file, 'utf8');
    const [postgres, commands, scripts] = report.split(/^## /m).slice(1);
    expect(postgres).toMatch(/^Postgres/);

    // The statement run three times, one row each; what ran before counting started is left out.
    const counted = rowOf(postgres!, 'AS counted');
    expect(counted?.[1]).toBe('3');
    expect(counted?.[2]).toBe('3');
    expect(postgres).not.toContain('set_up_only');

    // Three device ids looked up by the script's HGETs, and the script named by its file.
    expect(rowOf(commands!, 'hget')?.[1]).toBe('3');
    expect(rowOf(commands!, 'evalsha')?.[1]).toBe('2');
    expect(rowOf(scripts!, 'revokedPhones')?.[1]).toBe('2');
    expect(scripts).toContain('Calls that took 0 µs or more');
  }, 60_000);
});
