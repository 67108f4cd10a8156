import type { TSchema } from '@sinclair/typebox';
import { publicRoute, type AnyRoute } from './router.js';
import { ErrorBody } from '../schemas/schema-kit.js';
import { packageVersion } from '../package/version.js';

/**
 * GET /openapi.json: the OpenAPI 3.1 document, built from the very typebox schemas the router
 * validates with, so the documentation cannot drift from the behaviour.
 */
const errorResponse = { description: 'Error', content: { 'application/json': { schema: ErrorBody } } };

function operation(route: AnyRoute) {
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
  }));
  const query = route.query as (TSchema & { properties?: Record<string, TSchema>; required?: string[] }) | undefined;
  const queryParams = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query?.required?.includes(name) ?? false,
    schema,
  }));
  const headerParams = route.idempotencyKey ? [{ name: 'idempotency-key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[\\x21-\\x7e]+$' } }] : [];
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(route.responses ?? {})) {
    responses[status] = schema ? { description: 'Success', content: { 'application/json': { schema } } } : { description: 'Success, no body' };
  }
  responses.default = errorResponse;
  return {
    summary: route.summary,
    ...('scope' in route.auth ? { security: [{ bearer: [] }], 'x-scope': route.auth.scope } : {}),
    parameters: [...params, ...queryParams, ...headerParams],
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses,
  };
}

export function buildOpenApi(routes: AnyRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    // The phones' protocol and the dashboard's own API have their documents in docs/.
    if (route.path.startsWith('/device/') || route.path.startsWith('/dashboard/') || route.path === '/openapi.json') continue;
    const path = route.path.replaceAll(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Hafatra SMS gateway API', version: packageVersion },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Organization API key (hfk_…)' } } },
    paths,
  };
}

export function openApiRoute(routes: AnyRoute[]): AnyRoute {
  // Serialized once: a flood of requests for it costs no JSON work per request.
  const json = JSON.stringify(buildOpenApi(routes));
  return publicRoute({
    method: 'get',
    path: '/openapi.json',
    auth: { public: true },
    summary: 'This document',
    handler: async () => ({ status: 200, json }),
  });
}
