import type { Static } from '@sinclair/typebox';
import type { Setting } from './setting-kinds.js';
import { deliverySettings } from './settings/delivery.js';
import { integrationSettings } from './settings/integrations.js';
import { limitSettings } from './settings/limits.js';
import { processSettings } from './settings/process.js';

/**
 * Every setting a Hafatra process reads from the environment, in the order docs/configuration.md
 * lists them: the loader (config.ts), `hafatra config` and the docs table (`npm run config:docs`)
 * all come from this one table.
 */
export const settings = { ...processSettings, ...limitSettings, ...deliverySettings, ...integrationSettings };

export type SettingKey = keyof typeof settings;

/** A table's values, typed by each entry's schema. */
export type ValuesOf<T extends Record<string, Setting>> = { -readonly [K in keyof T]: Static<T[K]['kind']['schema']> };

export type Config = ValuesOf<typeof settings>;

export { cliClientSettings } from './settings/cli-client.js';
