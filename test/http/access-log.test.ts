import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { testConfig } from '../support/harness.js';
import { openContext, closeContext } from '../../src/app/runtime.js';
import { startApiServer, type ApiServer } from '../../src/app/api-server.js';
import { apiExtensions } from '../../src/app/api-extensions.js';
import { insertOrganization } from '../../src/orgs/sql/insert-organization.js';
import { createApiKey } from '../../src/auth/api-key-admin.js';
import { SCOPES } from '../../src/auth/principal.js';
import type { AppContext } from '../../src/context/app-context.js';
import type { Config } from '../../src/config/config.js';

interface Line {
  msg: string;
  [field: string]: unknown;
}

/** An API process whose log lines (at info, as in production) are kept for the test to read. */
async function startLoggedApp(overrides: Partial<Config>) {
  const ctx: AppContext = openContext(testConfig(overrides), 'test');
  const lines: Line[] = [];
  const raw: string[] = [];
  // The same redaction as production's logger is not needed here: the line's fields are the point.
  const write = (s: string) => {
    raw.push(s);
    lines.push(JSON.parse(s) as Line);
  };
  ctx.log = pino({ level: 'info' }, { write });
  const server: ApiServer = await startApiServer(ctx, apiExtensions(ctx));
  const org = await insertOrganization(ctx.db, { name: `access-${Date.now()}` });
  const { secret } = await createApiKey(ctx, { orgId: org.id, name: 'test', scopes: SCOPES });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    key: secret,
    lines,
    raw,
    access: () => lines.filter((l) => l.msg === 'request'),
    async close() {
      await server.close();
      await closeContext(ctx);
    },
  };
}

describe('the access log', () => {
  let app: Awaited<ReturnType<typeof startLoggedApp>>;
  beforeAll(async () => {
    app = await startLoggedApp({ logLevel: 'info' });
  });
  afterAll(() => app?.close());

  it('writes one info line per request: request id, method, route pattern, status, duration', async () => {
    const res = await fetch(`${app.url}/v1/messages/msg_0000000000000000000000000?secret=hunter2`, { headers: { authorization: `Bearer ${app.key}` } });
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id');
    const lines = app.access().filter((l) => l.requestId === requestId);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({ level: 30, method: 'GET', route: '/v1/messages/:messageId', status: 404 });
    expect(typeof line.ms).toBe('number');
    expect(line.ms as number).toBeGreaterThanOrEqual(0);
    // Neither the id from the path, nor the query string, nor the key is written.
    const written = app.raw.find((s) => s.includes(requestId!))!;
    expect(written).not.toContain('msg_0000000000000000000000000');
    expect(written).not.toContain('hunter2');
    expect(written).not.toContain(app.key);
  });

  it('logs a refused request, an unknown route and the health probes with bounded route names', async () => {
    const refused = await fetch(`${app.url}/v1/messages`, { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    const unknown = await fetch(`${app.url}/v1/no-such-thing/abc123`);
    expect(unknown.status).toBe(404);
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(200);
    // A dashboard page (app/ hands the server the dashboard's files): built or not, never a 404.
    const page = await fetch(`${app.url}/messages`);
    expect(page.status).not.toBe(404);
    const byId = (res: Response) => app.access().find((l) => l.requestId === res.headers.get('x-request-id'));
    expect(byId(refused)).toMatchObject({ method: 'POST', route: '/v1/messages', status: 401 });
    expect(byId(unknown)).toMatchObject({ method: 'GET', route: 'unmatched', status: 404 });
    expect(byId(ready)).toMatchObject({ method: 'GET', route: '/readyz', status: 200 });
    expect(byId(page)).toMatchObject({ method: 'GET', route: 'dashboard', status: page.status });
    expect(JSON.stringify(app.access())).not.toContain('abc123');
  });
});

it('writes no access line when HAFATRA_ACCESS_LOG is false', async () => {
  const app = await startLoggedApp({ logLevel: 'info', accessLog: false });
  try {
    const res = await fetch(`${app.url}/v1/messages`, { headers: { authorization: `Bearer ${app.key}` } });
    expect(res.status).toBe(200);
    expect(await (await fetch(`${app.url}/healthz`)).json()).toEqual({ status: 'ok' });
    // Other info lines (the process listening) still are: only the access lines are off.
    expect(app.lines.some((l) => l.msg === 'API listening')).toBe(true);
    expect(app.access()).toEqual([]);
  } finally {
    await app.close();
  }
});
