import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../support/harness.js';
import { pairPhone } from '../devices/support.js';
import { apiRoutes } from '../../src/app/routes.js';
import type { AnyRoute } from '../../src/http/router.js';
import { SEED, bodyBytes, expectAlive, expectWellFormed, headerSet, known500Body, pathId, queryString, rowCounts, send, type Credentials } from './support.js';

/**
 * Every route of the API (the phones' HTTP routes included) gets generated path ids, query
 * strings, headers and bodies. Properties, for each case: the process keeps answering, every
 * answer is JSON and a refusal is in the error shape with its requestId (never a 5xx), and a
 * refused request writes nothing. Fixed seed and bounded runs: a few seconds, the same cases
 * every run.
 */
let app: TestApp;
let orgId: string;
let creds: Credentials;
let routes: AnyRoute[];
/** Ids of rows that exist, so that some cases get past the 404 into the handler. */
let existing: Record<string, string>;

beforeAll(async () => {
  app = await startTestApp();
  const created = await app.createOrg();
  orgId = created.org.id;
  const phone = await pairPhone(app, orgId, { name: 'fuzz' });
  creds = { apiKey: created.key, deviceToken: phone.token };
  routes = apiRoutes(app.ctx);
  const webhook = await app.request('POST', '/v1/webhooks', { key: created.key, body: { url: 'https://93.184.216.34/hook', eventTypes: ['message.sent'] } });
  const sent = await app.request('POST', '/v1/messages', { key: created.key, body: { to: '+261341234567', body: 'fuzz' } });
  expect([webhook.status, sent.status]).toEqual([201, 202]);
  existing = { deviceId: phone.deviceId, endpointId: webhook.body.endpoint.id, messageId: sent.body.messages[0].id };
});
afterAll(() => app.close());

const isDevice = (route: AnyRoute) => route.path.startsWith('/device/');
const HAS_BODY = new Set(['post', 'patch', 'put']);

/** Generated ids, and (but for DELETE, which would take them away from the later cases) existing ones. */
function idsFor(route: AnyRoute, generated = pathId) {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  return fc.tuple(...names.map((n) => (existing[n] && route.method !== 'delete' ? fc.oneof(generated, fc.constant(existing[n])) : generated)));
}

function requestCase(route: AnyRoute, body: fc.Arbitrary<Buffer>, ids = idsFor(route)) {
  return fc.record({
    ids,
    query: queryString(route.query),
    headers: headerSet(isDevice(route), creds),
    body: HAS_BODY.has(route.method) ? body : fc.constant(undefined),
  });
}

async function runCase(route: AnyRoute, c: { ids: readonly string[]; query: string; headers: string[]; body: Buffer | undefined }) {
  let i = 0;
  const target = route.path.replace(/:\w+/g, () => c.ids[i++]!) + c.query;
  const before = await rowCounts(app, orgId);
  const res = await send(app, route.method, target, c.headers, c.body);
  const what = `${route.method} ${target.slice(0, 200)} ${JSON.stringify(c.headers)}`;
  expectWellFormed(res, what);
  if (res.status >= 400) expect(await rowCounts(app, orgId), `refused but wrote: ${what}`).toEqual(before);
  await expectAlive(app);
}

// The route table is built in beforeAll; the names are known here for the test titles.
const ROUTE_NAMES = apiRoutes({ config: {}, db: {}, redis: {}, keys: {}, log: {} } as never).map((r) => `${r.method} ${r.path}`);

describe('every route, fuzzed', () => {
  it.each(ROUTE_NAMES)('%s: path ids, query, headers and bodies', async (name) => {
    const route = routes.find((r) => `${r.method} ${r.path}` === name)!;
    await fc.assert(
      fc.asyncProperty(requestCase(route, bodyBytes(route.body)), (c) => runCase(route, c)),
      { seed: SEED, numRuns: route.body ? 25 : 10 },
    );
  });
});

// U+0000 in strings and integers above 2^31-1 once reached Postgres and answered 500 (issue 17, finding 5).
describe('every route with a body, U+0000 and integers above 2^31-1', () => {
  it.each(ROUTE_NAMES)('%s', async (name) => {
    const route = routes.find((r) => `${r.method} ${r.path}` === name)!;
    if (!route.body) return;
    await fc.assert(
      fc.asyncProperty(requestCase(route, known500Body(route.body), idsFor(route, fc.constant('x1'))), (c) => runCase(route, c)),
      { seed: SEED, numRuns: 20 },
    );
  });
});
