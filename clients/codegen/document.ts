import { readFile } from 'node:fs/promises';
import { apiRoutes } from '../../src/app/routes.js';
import type { AppContext } from '../../src/context/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import type { OpenApiDocument } from './api-model.js';

/**
 * The OpenAPI document as the server builds it, without starting one: route tables read their
 * settings when built and their connections only when a request comes, so the default settings
 * and connections that are never opened are enough to list them.
 */
function documentFromRoutes(): OpenApiDocument {
  const unopened: unknown = new Proxy(() => unopened, { get: (_target, key) => (key === 'then' ? undefined : unopened) });
  const ctx = new Proxy({ config: loadConfig({}) }, { get: (target, key) => (key === 'config' ? target.config : unopened) });
  const routes = apiRoutes(ctx as unknown as AppContext).filter((r) => r.path !== '/openapi.json');
  return JSON.parse(JSON.stringify(buildOpenApi(routes))) as OpenApiDocument;
}

/** `from`: a URL of a running server's /openapi.json, a file, or nothing for this checkout's own routes. */
export async function loadDocument(from?: string): Promise<OpenApiDocument> {
  if (!from) return documentFromRoutes();
  if (/^https?:\/\//.test(from)) {
    const res = await fetch(from);
    if (!res.ok) throw new Error(`${from}: HTTP ${res.status}`);
    return (await res.json()) as OpenApiDocument;
  }
  return JSON.parse(await readFile(from, 'utf8')) as OpenApiDocument;
}
