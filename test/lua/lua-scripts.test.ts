import { afterAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLuaScripts, resolveIncludes } from '../../src/redis/scripts/lua-scripts.js';
import { confirmClaims } from '../../src/redis/scripts/confirm-claims.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

describe('Lua scripts on a connection', () => {
  it('are every one defined when createRedis opens the connection, before its first command', () => {
    const commands = [...loadLuaScripts().values()].map((s) => s.command);
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(typeof (redis as unknown as Record<string, unknown>)[command], command).toBe('function');
  });

  it('refuse with a clear error on a connection opened without them', async () => {
    const bare = new Redis(inject('redisUrl'), { lazyConnect: true });
    try {
      await expect(confirmClaims(bare, { claiming: key('c'), queueMeta: key('m') }, { messageIds: ['x'] })).rejects.toThrow(/no Lua scripts/);
    } finally {
      bare.disconnect();
    }
  });
});

describe('lua/confirmClaims', () => {
  it('ends the claims of the ids given, dropping their meta, and counts those that were claimed', async () => {
    await redis.zadd(key('claiming'), 1, 'm1', 2, 'm2');
    await redis.hset(key('meta'), { m1: '{}', m2: '{}', m3: '{}' });
    expect(await confirmClaims(redis, { claiming: key('claiming'), queueMeta: key('meta') }, { messageIds: ['m1', 'm3'] })).toBe(1);
    expect(await redis.zrange(key('claiming'), '0', '-1')).toEqual(['m2']);
    expect(await redis.hkeys(key('meta'))).toEqual(['m2']);
  });

  it('counts an id given twice once, and ends more claims than one command takes', async () => {
    const ids = Array.from({ length: 2_345 }, (_, i) => `n${i}`);
    await redis.zadd(key('claiming2'), ...ids.flatMap((id, i) => [i, id]), 9_999, 'kept');
    await redis.hset(key('meta2'), Object.fromEntries([...ids, 'kept'].map((id) => [id, '{}'])));
    expect(await confirmClaims(redis, { claiming: key('claiming2'), queueMeta: key('meta2') }, { messageIds: [...ids, 'n0', 'absent'] })).toBe(2_345);
    expect(await redis.zrange(key('claiming2'), '0', '-1')).toEqual(['kept']);
    expect(await redis.hkeys(key('meta2'))).toEqual(['kept']);
  });
});

describe('Lua includes', () => {
  it('paste each named part where it is first included, once per script, and refuse a loop', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hafatra-lua-'));
    try {
      await mkdir(join(dir, 'includes'));
      await writeFile(join(dir, 'includes', 'a.lua'), 'local a = 1\n');
      await writeFile(join(dir, 'includes', 'b.lua'), '--- @include "includes/a"\nlocal b = a + 1\n');
      await writeFile(join(dir, 'includes', 'loop.lua'), '--- @include "includes/loop"\n');
      await writeFile(join(dir, 'both-0.lua'), '--- @include "includes/b"\n--- @include "includes/a"\nreturn b\n');
      const script = loadLuaScripts(dir).get('both')!;
      expect(script.lua).toBe('local a = 1\nlocal b = a + 1\n-- (includes/a: pasted above)\nreturn b\n');
      expect(await redis.eval(script.lua, 0)).toBe(2);
      expect(() => resolveIncludes('--- @include "includes/loop"', dir)).toThrow(/includes itself: includes\/loop -> includes\/loop/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("change a script's command name when an include changes: a deploy never runs a stale script", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hafatra-lua-'));
    try {
      await mkdir(join(dir, 'includes'));
      await writeFile(join(dir, 'one-0.lua'), '--- @include "includes/x"\n');
      await writeFile(join(dir, 'includes', 'x.lua'), 'return 1\n');
      const before = loadLuaScripts(dir).get('one')!.command;
      await writeFile(join(dir, 'includes', 'x.lua'), 'return 2\n');
      expect(loadLuaScripts(dir).get('one')!.command).not.toBe(before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
