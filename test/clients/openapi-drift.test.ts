import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { startTestApp, type TestApp } from '../support/harness.js';
import { redisReady } from '../api/redis-ready.js';
import { generatedFiles } from '../../clients/codegen/generate.js';
import { loadDocument } from '../../clients/codegen/document.js';
import type { OpenApiDocument } from '../../clients/codegen/api-model.js';

/**
 * The clients follow the OpenAPI document the server serves: their models and operations are
 * generated from it, and this fails the build when the committed files are not what the
 * document served now generates (a schema or a route changed without `npm run clients:generate`),
 * or when the document has an operation the generator has no name for.
 */
let app: TestApp;
let served: OpenApiDocument;

beforeAll(async () => {
  app = await startTestApp();
  await redisReady(app);
  const res = await app.request('GET', '/openapi.json');
  expect(res.status).toBe(200);
  served = res.body;
});
afterAll(() => app.close());

const root = new URL('../../', import.meta.url);

describe('the clients and the OpenAPI document', () => {
  it('hold exactly what the served document generates (run `npm run clients:generate` after changing the API)', async () => {
    for (const [path, expected] of Object.entries(generatedFiles(served))) {
      const committed = await readFile(new URL(path, root), 'utf8');
      expect(committed, `${path} is out of step with GET /openapi.json: run npm run clients:generate, then follow the change in the clients`).toBe(expected);
    }
  });

  it('are generated from the same document without a server (the generator reads the route table)', async () => {
    expect(await loadDocument()).toEqual(served);
  });

  it('notice a changed field: the generated models differ', () => {
    const changed: OpenApiDocument = structuredClone(served);
    const message = changed.paths['/v1/messages']!.post!.responses['202']!.content!['application/json']!.schema.properties!.messages!.items!;
    message.properties!.carrier = { type: 'string' };
    message.required!.push('carrier');
    const files = generatedFiles(changed);
    expect(files['clients/typescript/src/generated.ts']).toContain('carrier: string;');
    expect(files['clients/python/hafatra/_generated.py']).toContain('carrier: str');
    expect(files).not.toEqual(generatedFiles(served));
  });

  it('refuse an operation they have no name for, and one that is gone', () => {
    const added: OpenApiDocument = structuredClone(served);
    added.paths['/v1/contacts'] = { get: structuredClone(served.paths['/v1/devices']!.get!) };
    expect(() => generatedFiles(added)).toThrow(/GET \/v1\/contacts has no name/);
    const removed: OpenApiDocument = structuredClone(served);
    delete removed.paths['/v1/opt-outs'];
    expect(() => generatedFiles(removed)).toThrow(/gone from the document: get \/v1\/opt-outs, post \/v1\/opt-outs/);
  });

  it('carry the version of the server they were generated with', async () => {
    const read = async (path: string) => readFile(new URL(path, root), 'utf8');
    const version = JSON.parse(await read('package.json')).version;
    expect(JSON.parse(await read('clients/typescript/package.json')).version).toBe(version);
    expect(await read('clients/python/pyproject.toml')).toContain(`\nversion = "${version}"\n`);
    expect(await read('clients/python/hafatra/client.py')).toContain(`\n__version__ = "${version}"\n`);
  });
});
