import { inject } from 'vitest';
import { testDatabaseUrl } from './database.js';
import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config/config.js';
import { openContext, closeContext } from '../../src/app/runtime.js';
import type { Clock } from '../../src/time/clock.js';
import { startApiServer, type ApiExtensions } from '../../src/app/api-server.js';
import { apiExtensions } from '../../src/app/api-extensions.js';
import type { AppContext } from '../../src/context/app-context.js';
import type { Organization, OrganizationSettings } from '../../src/orgs/org-store.js';
import { insertOrganization } from '../../src/orgs/sql/insert-organization.js';
import { createApiKey } from '../../src/auth/api-key-admin.js';
import { SCOPES, type Scope } from '../../src/auth/principal.js';

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A running API process (in this test process) on its own Redis prefix, against the shared servers. */
export interface TestApp {
  ctx: AppContext;
  url: string;
  /** The HAFATRA_COMPAT_PORT listener's port, when the test enabled it. */
  compatPort: number | null;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  createOrg(settings?: OrganizationSettings): Promise<{ org: Organization; key: string }>;
  createKey(orgId: string, scopes: readonly Scope[], extra?: { expiresAt?: Date; ratePerSecond?: number; rateBurst?: number }): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    {
      databaseUrl: testDatabaseUrl(),
      redisUrl: inject('redisUrl'),
      redisPrefix: `t${randomBytes(5).toString('hex')}`,
      port: 0,
      host: '127.0.0.1',
      pgPoolSize: 10,
      // A closing test app stops at once; the drain test sets its own.
      drainSeconds: 0,
      ...overrides,
    },
  );
}

export const uniqueName = (base = 'org') => `${base}-${randomBytes(6).toString('hex')}`;

/** Like `hafatra api`: the route table plus phone authentication and sockets, unless `ext` replaces them. */
/** `clock` replaces the wall clock for the process's time-based decisions (see src/time/clock.ts). */
export async function startTestApp(overrides: Partial<Config> = {}, ext?: ApiExtensions, clock?: Clock): Promise<TestApp> {
  const ctx = openContext(testConfig(overrides), 'test', clock);
  const server = await startApiServer(ctx, ext ?? apiExtensions(ctx));
  const url = `http://127.0.0.1:${server.port}`;
  const createKey: TestApp['createKey'] = async (orgId, scopes, extra = {}) => {
    const { row, secret } = await createApiKey(ctx, { orgId, name: 'test', scopes, ...extra });
    return { id: row.id, key: secret };
  };
  return {
    ctx,
    url,
    compatPort: server.compatPort,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // leave the raw text: a test asserting JSON will fail on it
      }
      return { status: res.status, body: parsed as any, headers: res.headers };
    },
    async createOrg(settings = {}) {
      const org = await insertOrganization(ctx.db, { name: uniqueName(), ...settings });
      const { key } = await createKey(org.id, SCOPES);
      return { org, key };
    },
    createKey,
    async close() {
      await server.close();
      await closeContext(ctx);
    },
  };
}
