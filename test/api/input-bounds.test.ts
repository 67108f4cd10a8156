import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import { startTestApp, type TestApp } from '../support/harness.js';
import { apiRoutes } from '../../src/app/routes.js';
import { deviceOperations } from '../../src/app/device-operations.js';
import { ClaimBody, StatusReport } from '../../src/dispatch/schemas.js';
import { RADIO_TEXT, TEXT_PATTERN } from '../../src/schemas/schema-kit.js';
import { redisReady } from './redis-ready.js';

// Every string and integer a client or a phone sends must be refused by its schema before
// Postgres refuses it (a 500 after the request was accepted): strings refuse U+0000 and lone
// surrogates (jsonb refuses those) or, for text from the phone's radio, have them repaired;
// integers have bounds a column holds. A new field written with a bare Type.String() or
// Type.Integer() fails here.

let app: TestApp;
let doc: any;

beforeAll(async () => {
  app = await startTestApp();
  await redisReady(app);
  doc = (await app.request('GET', '/openapi.json')).body;
});
afterAll(() => app.close());

/** Every input schema node that is a string or a number, with its path, for problems(). */
function* leaves(schema: any, path: string): Generator<[string, any]> {
  if (schema.type === 'string' || schema.type === 'integer' || schema.type === 'number') yield [path, schema];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) yield* leaves(prop, `${path}.${name}`);
  if (schema.items) yield* leaves(schema.items, `${path}[]`);
  for (const variant of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) yield* leaves(variant, path);
}

function problems(schema: TSchema | undefined, where: string): string[] {
  if (!schema) return [];
  const found: string[] = [];
  for (const [path, leaf] of leaves(schema, where)) {
    if (leaf.type === 'string') {
      if (leaf.const !== undefined || leaf[RADIO_TEXT] === true) continue;
      const pattern = leaf.pattern === undefined ? undefined : new RegExp(leaf.pattern);
      if (!pattern || ['\u0000', 'a\u0000', '\u0000a', '\ud800', 'a\udc00'].some((s) => pattern.test(s))) {
        found.push(`${path}: a string that accepts U+0000 or a lone surrogate`);
      }
    } else {
      if (leaf.type !== 'integer') found.push(`${path}: type ${leaf.type}; inputs are integers`);
      const inRange = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n);
      if (!inRange(leaf.minimum) || !inRange(leaf.maximum)) found.push(`${path}: an integer without safe minimum and maximum`);
    }
  }
  return found;
}

describe('input schemas', () => {
  it('of every route, body and query, bound every integer and keep U+0000 out of every string', () => {
    const found = apiRoutes(app.ctx).flatMap((r) => [...problems(r.body, `${r.method} ${r.path} body`), ...problems(r.query, `${r.method} ${r.path} query`)]);
    expect(found).toEqual([]);
  });

  it('of every phone socket frame do the same', () => {
    const ops = deviceOperations(app.ctx);
    const found = [...problems(ops.heartbeat?.schema, 'heartbeat'), ...problems(ops.incoming?.schema, 'incoming'), ...problems(ClaimBody, 'claim'), ...problems(StatusReport, 'status')];
    expect(found).toEqual([]);
  });

  it('show their bounds in /openapi.json', () => {
    const send = doc.paths['/v1/messages'].post.requestBody.content['application/json'].schema;
    expect(send.properties.simSubscriptionId).toMatchObject({ type: 'integer', minimum: 0, maximum: 2_147_483_647 });
    expect(send.properties.body).toMatchObject({ type: 'string', pattern: TEXT_PATTERN });
    const patch = doc.paths['/v1/devices/{deviceId}'].patch.requestBody.content['application/json'].schema;
    expect(patch.properties.defaultSimSubscriptionId.anyOf[0]).toMatchObject({ type: 'integer', minimum: 0, maximum: 2_147_483_647 });
    expect(patch.properties.name).toMatchObject({ pattern: TEXT_PATTERN });
  });
});
