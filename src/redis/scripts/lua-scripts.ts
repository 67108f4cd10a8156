import { readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from '../client.js';
import { pipelineByNode } from '../pipeline-by-node.js';
import { luaDir } from '../../package/paths.js';

/**
 * Lua scripts live one per file in lua/, named `<name>-<numberOfKeys>.lua` (BullMQ's convention).
 * Each is registered with ioredis under `<name>_<sha8>`, so a deploy never runs a stale script
 * under the same name, and ioredis sends EVALSHA (falling back to EVAL on NOSCRIPT, e.g. after
 * Redis was flushed). Callers use the typed function of each script, next to this file.
 *
 * A script may take named parts from lua/includes/ with a line `--- @include "includes/<name>"`
 * (BullMQ's syntax): the line is replaced by that file, itself resolved, when the script is
 * loaded, so Redis still runs one script in one call, and the sha covers what it runs.
 */
export interface LuaScript {
  name: string;
  numberOfKeys: number;
  lua: string;
  command: string;
}

export type LuaArg = string | number;

const INCLUDE = /^--- @include "([^"]+)"[ \t]*$/gm;

/**
 * `lua` with each include line replaced by its file, read from `dir`: an include already pasted
 * into this script (by another include) is pasted once, the first time; a loop is an error.
 */
export function resolveIncludes(lua: string, dir = luaDir, pasted = new Set<string>(), within: string[] = []): string {
  return lua.replace(INCLUDE, (_line, name: string) => {
    if (within.includes(name)) throw new Error(`lua/${name}.lua includes itself: ${[...within, name].join(' -> ')}`);
    if (pasted.has(name)) return `-- (${name}: pasted above)`;
    pasted.add(name);
    const text = readFileSync(join(dir, `${name}.lua`), 'utf8');
    return resolveIncludes(text, dir, pasted, [...within, name]).trimEnd();
  });
}

export function loadLuaScripts(dir = luaDir): Map<string, LuaScript> {
  const scripts = new Map<string, LuaScript>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.lua'))
    .sort()) {
    const match = /^(.+)-(\d+)\.lua$/.exec(file);
    if (!match) throw new Error(`lua/${file}: name must be <name>-<numberOfKeys>.lua`);
    const lua = resolveIncludes(readFileSync(join(dir, file), 'utf8'), dir);
    const sha8 = createHash('sha1').update(lua).digest('hex').slice(0, 8);
    const name = match[1]!;
    scripts.set(name, { name, numberOfKeys: Number(match[2]), lua, command: `${name}_${sha8}` });
  }
  return scripts;
}

// Read once per process: a handful of small files, needed by the first connection anyway.
const scripts = loadLuaScripts();

/** Gives a new connection (and its pipelines) every script as a command: done when it is created. */
export function defineScripts(redis: Redis): void {
  for (const s of scripts.values()) redis.defineCommand(s.command, { numberOfKeys: s.numberOfKeys, lua: s.lua });
}

/** The script of lua/<name>-N.lua: looked up when its typed function's module loads, so a renamed file fails at start. */
export function luaScript(name: string): LuaScript {
  const script = scripts.get(name);
  if (!script) throw new Error(`no Lua script named ${name} in lua/`);
  return script;
}

type ScriptCommand = (...a: LuaArg[]) => Promise<unknown>;

function commandOf(target: object, script: LuaScript): ScriptCommand {
  const command = (target as Record<string, ScriptCommand | undefined>)[script.command];
  if (!command) throw new Error(`this Redis connection has no Lua scripts: open it with createRedis (or call defineScripts on it)`);
  return command;
}

function checkKeys(script: LuaScript, keys: string[]): void {
  if (keys.length !== script.numberOfKeys) throw new Error(`script ${script.name} takes ${script.numberOfKeys} keys, got ${keys.length}`);
}

/** Runs a script atomically and answers its raw reply, for its typed function to decode. */
export function evalScript(redis: Redis, script: LuaScript, keys: string[], args: LuaArg[]): Promise<unknown> {
  checkKeys(script, keys);
  return commandOf(redis, script).call(redis, ...keys, ...args);
}

/**
 * Runs one script many times in one pipeline (one write, one read): for callers that batch
 * concurrent requests. Each entry is the raw reply or the Error that call raised.
 */
export async function evalScriptMany(redis: Redis, script: LuaScript, calls: { keys: string[]; args: LuaArg[] }[]): Promise<unknown[]> {
  // One call (the usual batch: every request of a turn with the same key) goes without a
  // pipeline: ioredis copies each defined command onto every pipeline it makes, 5-7 µs apiece.
  if (calls.length === 1) return [await evalScript(redis, script, calls[0]!.keys, calls[0]!.args).catch((err: Error) => err)];
  for (const c of calls) checkKeys(script, c.keys);
  const results = await pipelineByNode(
    redis,
    calls,
    (c) => c.keys[0] ?? '',
    (pipeline, c) => void commandOf(pipeline, script).call(pipeline, ...c.keys, ...c.args),
  );
  return results.map(([err, value]) => err ?? value);
}

/** A reply no version of the script gives: the script and its typed function disagree. */
export function unexpectedReply(script: LuaScript, reply: unknown): Error {
  return new Error(`Lua script ${script.name} answered ${JSON.stringify(reply)}, which its typed function does not know`);
}
