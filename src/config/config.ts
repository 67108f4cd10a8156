import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Setting } from './setting-kinds.js';
import { settings, type Config, type ValuesOf } from './settings.js';

export { settings, cliClientSettings, type Config, type SettingKey } from './settings.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const schemaOf = (table: Record<string, Setting>) => Type.Object(Object.fromEntries(Object.entries(table).map(([key, s]) => [key, s.kind.schema])) as Record<string, TSchema>);
const ConfigSchema = schemaOf(settings);

/** Each entry's parsed value: the variable if set, else its default. */
function parsed<T extends Record<string, Setting>>(table: T, env: NodeJS.ProcessEnv): Record<keyof T, unknown> {
  return Object.fromEntries(Object.entries(table).map(([key, s]) => [key, s.kind.parse(env[s.env] ?? s.default)])) as Record<keyof T, unknown>;
}

/** What is wrong with each value, naming its key (`port: Expected integer`). */
function problemsOf(schema: TSchema, values: unknown): string[] {
  return [...Value.Errors(schema, values)].map((e) => `${e.path.slice(1)}: ${e.message}`);
}

/** Reads and validates the configuration once; every later reader gets the typed object. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw = { ...parsed(settings, env), ...overrides };
  const problems = problemsOf(ConfigSchema, raw);
  // The compatibility listener relays to PORT over plain HTTP.
  if (raw.https === true && raw.compatPort !== null) problems.push('https: HAFATRA_HTTPS cannot be combined with HAFATRA_COMPAT_PORT');
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return raw as Config;
}

/**
 * The settings of one table (the CLI's client settings, or a few server ones a command needs
 * without the whole configuration), validated the same way.
 */
export function readSettings<T extends Record<string, Setting>>(table: T, env: NodeJS.ProcessEnv = process.env): ValuesOf<T> {
  const values = parsed(table, env);
  const problems = problemsOf(schemaOf(table), values);
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return values as ValuesOf<T>;
}
