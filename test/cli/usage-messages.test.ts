import { describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { runCliInProcess } from '../support/cli.js';
import { testDatabaseUrl } from '../support/database.js';
import { prettyLine } from '../../src/logging/pretty.js';

const env = { DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: `use${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'silent' };
const hafatra = (...args: string[]) => runCliInProcess(args, env);

describe('hafatra usage', () => {
  it('says "unknown command" for a command that does not exist, with the help, exit 2', async () => {
    const res = await hafatra('bogus');
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: unknown command: bogus\n/);
    expect(res.stderr).toContain('hafatra org create');
    const sub = await hafatra('key', 'frobnicate');
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/^error: unknown command: hafatra key frobnicate/);
  });

  it.each(['key', 'message', 'org', 'webhook'])("prints the %s group's help on --help and exits 0", async (group) => {
    const res = await hafatra(group, '--help');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^hafatra ${group}: its commands\\.`));
    const listed = res.stdout.split('\n').filter((l) => l.startsWith('  hafatra '));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((l) => l.startsWith(`  hafatra ${group} `))).toBe(true);
    const bare = await hafatra(group);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(`hafatra ${group} needs a command`);
  });

  it('keeps the general help on --help, help and no argument', async () => {
    for (const args of [['--help'], ['help'], []]) {
      const res = await hafatra(...args);
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^Hafatra: a self-hosted SMS gateway\./);
    }
  });

  it("answers a negative number with the option's own message, not the parser's", async () => {
    const res = await hafatra('org', 'update', 'default', '--daily-limit', '-5');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--daily-limit must be an integer from 1 to 100000');
    expect(res.stderr).not.toContain('ambiguous');
  });

  it('prints config as blocks no wider than 100 columns', async () => {
    const res = await hafatra('config');
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(res.stdout).toMatch(/^PORT {2}\(default 3000\)\n {4}HTTP port/m);
    expect(res.stdout).toMatch(/^DATABASE_URL {2}\(default \(empty\), now \(set\)\)$/m);
  });
});

describe('pretty log lines (LOG_FORMAT=auto in a terminal, or pretty)', () => {
  const line = (o: Record<string, unknown>) => JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 1, 9, 5, 7), pid: 1, hostname: 'h', name: 'hafatra', ...o });
  it('shows time, level, message and fields; leaves access lines out unless asked', () => {
    const shown = prettyLine(line({ level: 40, msg: 'redis connection error', err: 'ECONNREFUSED', attempt: 3 }), { accessLines: false, colour: false });
    expect(shown).toMatch(/^\d\d:\d\d:\d\d WARN {2}redis connection error {2}attempt=3 {2}err=ECONNREFUSED$/);
    const access = line({ msg: 'request', method: 'GET', route: '/v1/messages', status: 200, ms: 2 });
    expect(prettyLine(access, { accessLines: false, colour: false })).toBeNull();
    expect(prettyLine(access, { accessLines: true, colour: false })).toMatch(/INFO {2}request {2}method=GET route=\/v1\/messages status=200 ms=2$/);
    expect(prettyLine('not json', { accessLines: false, colour: false })).toBe('not json');
  });
});

describe('createLogger formats', () => {
  async function logged(level: string, format: 'pretty' | 'json', write: (log: import('pino').Logger) => void): Promise<string> {
    const { createLogger } = await import('../../src/logging/logger.js');
    const original = process.stdout.write;
    let out = '';
    process.stdout.write = ((chunk: string) => {
      out += chunk;
      return true;
    }) as typeof process.stdout.write;
    try {
      const log = createLogger(level, 'hafatra', format);
      write(log);
      log.flush?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.stdout.write = original;
    }
    return out;
  }

  it('pretty: readable lines, access lines only at debug; json: one document per line', async () => {
    const both = (log: import('pino').Logger) => {
      log.warn({ task: 'sweep' }, 'periodic task failed');
      log.info({ method: 'GET', status: 200 }, 'request');
    };
    const pretty = await logged('info', 'pretty', both);
    expect(pretty).toMatch(/^\d\d:\d\d:\d\d WARN {2}periodic task failed {2}task=sweep\n$/);
    expect(await logged('debug', 'pretty', both)).toMatch(/INFO {2}request {2}method=GET status=200/);
    const json = (await logged('info', 'json', both)).trim().split('\n');
    expect(json.map((l) => JSON.parse(l).msg)).toEqual(['periodic task failed', 'request']);
  });
});
