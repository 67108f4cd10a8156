import { readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { luaDir } from '../paths.js';

/**
 * Lua scripts live one per file in lua/, named `<name>-<numberOfKeys>.lua` (BullMQ's convention).
 * `--- @include "includes/x"` pulls in a shared snippet once. Each script is registered with
 * ioredis under `<name>_<sha8>`, so a deploy never runs a stale script under the same name, and
 * ioredis sends EVALSHA (falling back to EVAL on NOSCRIPT, e.g. after Redis was flushed).
 */
export interface LuaScript {
  name: string;
  numberOfKeys: number;
  lua: string;
  command: string;
}

const INCLUDE = /^--- @include "([^"]+)"\s*$/gm;

function resolveIncludes(source: string, seen = new Set<string>()): string {
  return source.replace(INCLUDE, (_, path: string) => {
    if (seen.has(path)) return '';
    seen.add(path);
    return resolveIncludes(readFileSync(join(luaDir, `${path}.lua`), 'utf8'), seen);
  });
}

export function loadLuaScripts(dir = luaDir): Map<string, LuaScript> {
  const scripts = new Map<string, LuaScript>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.lua')).sort()) {
    const match = /^(.+)-(\d+)\.lua$/.exec(file);
    if (!match) throw new Error(`lua/${file}: name must be <name>-<numberOfKeys>.lua`);
    const lua = resolveIncludes(readFileSync(join(dir, file), 'utf8'));
    const sha8 = createHash('sha1').update(lua).digest('hex').slice(0, 8);
    const name = match[1]!;
    scripts.set(name, { name, numberOfKeys: Number(match[2]), lua, command: `${name}_${sha8}` });
  }
  return scripts;
}

let cached: Map<string, LuaScript> | undefined;
const registered = new WeakSet<Redis>();

function ensureRegistered(redis: Redis): Map<string, LuaScript> {
  cached ??= loadLuaScripts();
  if (!registered.has(redis)) {
    for (const s of cached.values()) redis.defineCommand(s.command, { numberOfKeys: s.numberOfKeys, lua: s.lua });
    registered.add(redis);
  }
  return cached;
}

export type LuaArg = string | number;

/** Runs the script `name` (file lua/<name>-N.lua) atomically. */
export async function runScript<T = unknown>(redis: Redis, name: string, keys: string[], args: LuaArg[]): Promise<T> {
  const script = ensureRegistered(redis).get(name);
  if (!script) throw new Error(`no Lua script named ${name}`);
  if (keys.length !== script.numberOfKeys) {
    throw new Error(`script ${name} takes ${script.numberOfKeys} keys, got ${keys.length}`);
  }
  const command = (redis as unknown as Record<string, (...a: LuaArg[]) => Promise<T>>)[script.command]!;
  return command.call(redis, ...keys, ...args);
}

/**
 * Runs the same script many times in one pipeline (one write, one read): for callers that
 * batch concurrent requests. Each result is the script's reply or the Error it raised.
 */
export async function runScriptMany<T = unknown>(redis: Redis, name: string, calls: { keys: string[]; args: LuaArg[] }[]): Promise<(T | Error)[]> {
  const script = ensureRegistered(redis).get(name);
  if (!script) throw new Error(`no Lua script named ${name}`);
  const pipeline = redis.pipeline() as unknown as Record<string, (...a: LuaArg[]) => unknown> & { exec(): Promise<[Error | null, T][] | null> };
  for (const c of calls) pipeline[script.command]!(...c.keys, ...c.args);
  const results = (await pipeline.exec()) ?? [];
  return results.map(([err, value]) => err ?? value);
}
