import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { startTestApp, type TestApp } from '../support/harness.js';
import { PatchDeviceBody, RegisterBody, ReportBody } from '../../src/mobile-api/schemas.js';
import { registeredPhone } from '../mobile-api/support.js';
import { SEED, bodyBytes, expectAlive, expectWellFormed, headerSet, known500Body, queryString, rowCounts, send } from './support.js';

/**
 * The mobile API (SMS Gateway for Android, /mobile/v1) gets generated headers, queries and
 * bodies, as every route of the public API does (http-routes.test.ts): the process keeps
 * answering, no answer is a 5xx, a refusal is in the error shape, and a refused request writes
 * nothing.
 */
let app: TestApp;
let orgId: string;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  const created = await app.createOrg();
  orgId = created.org.id;
  const phone = await registeredPhone(app, orgId);
  token = phone.token!;
  const sent = await app.request('POST', '/v1/messages', { key: created.key, body: { to: '+261341234567', body: 'fuzz', deviceId: phone.id } });
  expect(sent.status).toBe(202);
  expect((await phone.pull()).length).toBe(1);
});
afterAll(() => app.close());

const ROUTES: [method: string, path: string, body?: TSchema][] = [
  ['post', '/mobile/v1/device', RegisterBody],
  ['patch', '/mobile/v1/device', PatchDeviceBody],
  ['get', '/mobile/v1/device'],
  ['get', '/mobile/v1/message'],
  ['get', '/mobile/v1/messages'],
  ['patch', '/mobile/v1/message', ReportBody],
  ['patch', '/mobile/v1//messages', ReportBody],
  ['patch', '/mobile/v1//message', ReportBody],
];

async function runCase(method: string, path: string, c: { query: string; headers: string[]; body: Buffer | undefined }) {
  const before = await rowCounts(app, orgId);
  const res = await send(app, method, path + c.query, c.headers, c.body);
  const what = `${method} ${path}${c.query.slice(0, 100)} ${JSON.stringify(c.headers)}`;
  expectWellFormed(res, what);
  if (res.status >= 400) expect(await rowCounts(app, orgId), `refused but wrote: ${what}`).toEqual(before);
  await expectAlive(app);
}

const requestCase = (method: string, body: fc.Arbitrary<Buffer>) =>
  fc.record({
    query: queryString(undefined),
    headers: headerSet(true, { apiKey: 'hfk_none', deviceToken: token }),
    body: method === 'get' ? fc.constant(undefined) : body,
  });

describe('the mobile API, fuzzed', () => {
  it.each(ROUTES)('%s %s: headers, query and bodies', async (method, path, schema) => {
    await fc.assert(
      fc.asyncProperty(requestCase(method, bodyBytes(schema)), (c) => runCase(method, path, c)),
      { seed: SEED, numRuns: schema ? 40 : 10 },
    );
  });

  it.each(ROUTES.filter((r) => r[2]))('%s %s: U+0000 and integers above 2^31-1', async (method, path, schema) => {
    await fc.assert(
      fc.asyncProperty(requestCase(method, known500Body(schema!)), (c) => runCase(method, path, c)),
      { seed: SEED, numRuns: 20 },
    );
  });
});
