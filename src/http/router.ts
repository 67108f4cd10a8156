import type { TSchema, Static } from '@sinclair/typebox';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws.js';
import { parseJson, readBody, type BodyResult } from './body.js';
import { compileValidator } from '../schemas/validation.js';
import { errorReply, toHafatraError, type Reply, type ResponseState } from './reply.js';
import { clientAddressFrom, clientAddressOf } from './client-address.js';
import type { AddressBuckets } from '../limits/address-buckets.js';
import type { Bulkhead } from '../limits/bulkhead.js';
import type { SlowRefusals } from '../limits/slow-refusals.js';
import { guarded, replySafely } from './guard.js';
import { copyIdempotencyKey, validIdempotencyKey, type RawIdempotencyKey } from './request-headers.js';
import { errors } from '../errors/errors.js';
import { PATH_ID } from '../ids/ids.js';
import { roleAtLeast, type ApiPrincipal, type DevicePrincipal, type MemberPrincipal, type Role, type Scope } from '../auth/principal.js';
import { refuseCrossSite, type BrowserHeaders } from './same-origin.js';
import type { Logger } from '../logging/logger.js';
import type { AccessLog } from './access-log.js';

import type { Method } from './method.js';

/** What a handler sees: everything copied out of uWS's stack-allocated request. */
export interface ApiRequest<B = unknown, Q = unknown, P = ApiPrincipal | MemberPrincipal | DevicePrincipal | null> {
  requestId: string;
  method: Method;
  path: string;
  params: Record<string, string>;
  query: Q;
  body: B;
  headers: RequestHeaders;
  principal: P;
  /** The route's prefetch result, when it has one (see RouteSpec.prefetch). */
  prefetched?: Promise<unknown>;
  /** The client's address (src/http/client-address.ts) when the route asks for it, else empty. */
  clientAddress: string;
}

export interface RequestHeaders {
  authorization?: string;
  contentType?: string;
  idempotencyKey?: string;
  /** Read only when there is no Authorization header (a browser's session cookie). */
  cookie?: string;
  /** Read only on routes with `browser: true` (sign-in and the like: they set cookies). */
  userAgent?: string;
  /** Read only where the same-origin rule applies (src/http/same-origin.ts). */
  browser?: BrowserHeaders;
}

/**
 * scope: an API key with the scope, or a member session whose role grants it. role: a member
 * session only (dashboard routes). device: a phone's token. public: no credential.
 */
type AuthMode = { scope: Scope } | { role: Role } | { device: true } | { public: true };

export interface RouteSpec<BS extends TSchema | undefined, QS extends TSchema | undefined, P> {
  method: Method;
  path: string;
  auth: AuthMode;
  body?: BS;
  query?: QS;
  summary: string;
  responses?: Record<number, TSchema | null>;
  /**
   * A read that depends only on the path and can start while the caller is being authenticated
   * (the two round trips overlap). Its result is given to the handler, which must still check it
   * against the principal (another organization's row answers 404); it is dropped when
   * authentication fails. For side-effect-free reads only.
   */
  prefetch?: (params: Record<string, string>) => Promise<unknown>;
  /** The handler reads req.clientAddress (other routes do not pay for it). */
  clientAddress?: true;
  /**
   * A public route a browser calls to get a session (sign-in, one-time links): the same-origin
   * rule applies to it as to cookie-authenticated requests, and it reads the User-Agent.
   */
  browser?: true;
  /**
   * A member doing this is written to the audit log (src/audit/record-audit.ts) once it
   * succeeded. Routes that know more (a transaction, the detail) call recordAudit themselves.
   */
  audit?: {
    action: string;
    /** The reply is the success answered: a route names what it made (a batch, an endpoint, a number as stored) from it. */
    target?: (req: AuditedRequest) => string | null;
    detail?: (req: AuditedRequest) => Record<string, unknown>;
    /** Logged for members only: an API key's sends are its traffic, recorded by the messages themselves (their batchId), not in the log. */
    membersOnly?: true;
  };
  /** The route takes an `Idempotency-Key` header: checked by the router, given as req.headers.idempotencyKey. */
  idempotencyKey?: true;
  handler: (req: ApiRequest<BS extends TSchema ? Static<BS> : undefined, QS extends TSchema ? Static<QS> : Record<string, never>, P>) => Promise<Reply>;
}

/** What an audited route's target and detail are read from: the request, and the success it answered. */
// biome-ignore lint/suspicious/noExplicitAny: the body's and reply's types are the route's own, checked where the route is declared.
type AuditedRequest = { params: Record<string, string>; body: any; reply: any };

// Routes of every shape share one table; the spec's types meet at the handler.
// biome-ignore lint/suspicious/noExplicitAny: each route's own types are checked where it is declared.
export type AnyRoute = RouteSpec<any, any, any>;

export function apiRoute<BS extends TSchema | undefined = undefined, QS extends TSchema | undefined = undefined>(
  spec: RouteSpec<BS, QS, ApiPrincipal | MemberPrincipal> & { auth: { scope: Scope } },
): AnyRoute {
  return spec;
}

/** A dashboard route: a signed-in member with at least this role in their current organization. */
export function memberRoute<BS extends TSchema | undefined = undefined, QS extends TSchema | undefined = undefined>(spec: RouteSpec<BS, QS, MemberPrincipal> & { auth: { role: Role } }): AnyRoute {
  return spec;
}

export function deviceRoute<BS extends TSchema | undefined = undefined, QS extends TSchema | undefined = undefined>(spec: RouteSpec<BS, QS, DevicePrincipal> & { auth: { device: true } }): AnyRoute {
  return spec;
}

/** No API key or device token: the route checks its own credential (a pairing code) or has none. */
export function publicRoute<BS extends TSchema | undefined = undefined>(spec: RouteSpec<BS, undefined, null> & { auth: { public: true } }): AnyRoute {
  return spec;
}

export interface Authenticators {
  apiKey(authorization: string | undefined): Promise<ApiPrincipal>;
  device(authorization: string | undefined): Promise<DevicePrincipal>;
  member(cookie: string | undefined): Promise<MemberPrincipal>;
}

/** The dashboard's static files, as app/ hands them over (src/dashboard/static-files.ts). */
export interface DashboardPages {
  /** Whether a GET of this path is the dashboard's, not the API's. */
  owns(path: string): boolean;
  reply(path: string, acceptsGzip: boolean): Reply;
}

export interface RouterDeps {
  authenticators: Authenticators;
  /** The dashboard's pages, answered to any GET the API does not own; false: none (tests of the HTTP layer alone). */
  dashboard?: false | DashboardPages;
  /** Writes routes' `audit` entries (needed as soon as a route declares one): app/ hands in src/audit/record-audit.ts. */
  recordAudit?: (principal: ApiPrincipal | MemberPrincipal, address: string, entry: { action: string; target: string | null; detail?: Record<string, unknown> }) => Promise<void>;
  bodyLimitBytes: number;
  /** Take the client's address from X-Forwarded-For (HAFATRA_TRUST_PROXY). */
  trustProxy?: boolean;
  log: Logger;
  /** Requests without a credential, and failed authentications, per client address (src/limits/address-buckets.ts); absent: none. */
  anonymousLimit?: AddressBuckets;
  /** Requests handled at once per organization and per phone (src/limits/bulkhead.ts); absent: none. */
  bulkheads?: { organization: Bulkhead; device: Bulkhead };
  /** Refusals (429) of a client that keeps asking past them: held, or its connection closed (src/limits/slow-refusals.ts); absent: all answered at once. */
  slowRefusals?: SlowRefusals;
  /** A request refused by one of the limits above, for /metrics and the log. */
  onLimited?: (limit: 'anonymous' | 'organization' | 'device', principal?: { orgId: string }) => void;
  /** A refusal held or closed by slowRefusals, for /metrics. */
  onPaced?: (pace: 'held' | 'closed') => void;
  /** One line per answered request (HAFATRA_ACCESS_LOG); absent: none. */
  accessLog?: AccessLog;
  inflight: { count: number };
}

const HAS_BODY: ReadonlySet<Method> = new Set(['post', 'patch', 'put']);
/** What a GET or DELETE reads: one settled promise shared by all of them (no body, nothing to wait for). */
const NO_BODY: Promise<BodyResult> = Promise.resolve({ ok: true, body: Buffer.alloc(0) });
/** The access log's method names, made once rather than per request. */
const UPPER: Record<Method, string> = { get: 'GET', post: 'POST', patch: 'PATCH', put: 'PUT', delete: 'DELETE' };

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const base = contentType.split(';')[0]!.trim().toLowerCase();
  return base === 'application/json' || (base.startsWith('application/') && base.endsWith('+json'));
}

function paramNames(path: string): string[] {
  return path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
}

/**
 * A path segment as the client meant it. A bad escape (`%ff`, a lone `%`) throws URIError in
 * decodeURIComponent; it can name no resource, so it becomes '', which fails PATH_ID (404).
 */
function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

/** URLSearchParams never throws: a bad escape stays as it was written, bad UTF-8 becomes U+FFFD. */
function parseQuery(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(raw)) if (!(k in out)) out[k] = v;
  return out;
}

export function registerRoute(app: TemplatedApp, route: AnyRoute, deps: RouterDeps): void {
  const names = paramNames(route.path);
  const bodyValidator = route.body ? compileValidator(route.body) : undefined;
  const queryValidator = route.query ? compileValidator(route.query, { coerce: true }) : undefined;
  const takesBody = HAS_BODY.has(route.method);

  // uWS names its DELETE handler `del`.
  const uwsMethod = route.method === 'delete' ? 'del' : route.method;
  const register = (app as unknown as Record<string, (...args: unknown[]) => unknown>)[uwsMethod]!.bind(app) as (pattern: string, h: (res: HttpResponse, req: HttpRequest) => void) => TemplatedApp;
  register(
    route.path,
    guarded(deps.log, `${route.method} ${route.path}`, (res, req, { state, requestId }) => {
      const startedAt = performance.now();
      const params: Record<string, string> = {};
      names.forEach((name, i) => (params[name] = decodeSegment(req.getParameter(i) ?? '')));
      const authorization = req.getHeader('authorization') || undefined;
      // Only a request without Authorization can be a browser's: API clients pay for no more headers.
      const cookie = authorization === undefined && !('device' in route.auth) ? req.getHeader('cookie') || undefined : undefined;
      const copied: Copied = {
        requestId,
        query: req.getQuery() ?? '',
        path: req.getUrl(),
        // getHeader reads a value byte for byte (src/http/request-headers.ts says what uWS loses).
        headers: {
          authorization,
          contentType: req.getHeader('content-type') || undefined,
          cookie,
          userAgent: route.browser ? req.getHeader('user-agent') || undefined : undefined,
          browser: cookie !== undefined || route.browser ? { origin: req.getHeader('origin'), host: req.getHeader('host'), secFetchSite: req.getHeader('sec-fetch-site') } : undefined,
        },
        idempotencyKey: route.idempotencyKey ? copyIdempotencyKey(req) : undefined,
        params,
        clientAddress: route.clientAddress || (route.audit && (cookie || !route.audit.membersOnly)) ? clientAddressOf(res, req, deps.trustProxy ?? false) : '',
        anonymous: authorization === undefined && cookie === undefined,
        // Copied now (req dies at the first await), read only when the limit asks for the address.
        forwardedFor: deps.anonymousLimit && deps.trustProxy ? req.getHeader('x-forwarded-for') : undefined,
        startedAt,
      };
      const body = takesBody ? readBody(res, state, deps.bodyLimitBytes) : NO_BODY;
      deps.inflight.count++;
      handle(res, state, route, copied, body, bodyValidator, queryValidator, deps).finally(() => deps.inflight.count--);
    }),
  );
}

/** What the handler needs of uWS's request, copied before the first await. */
interface Copied {
  requestId: string;
  query: string;
  path: string;
  headers: RequestHeaders;
  idempotencyKey: RawIdempotencyKey | undefined;
  params: Record<string, string>;
  clientAddress: string;
  /** No Authorization header and no session cookie. */
  anonymous: boolean;
  forwardedFor: string | undefined;
  startedAt: number;
}

async function handle(
  res: HttpResponse,
  state: ResponseState,
  route: AnyRoute,
  copied: Copied,
  bodyPromise: Promise<BodyResult>,
  bodyValidator: ReturnType<typeof compileValidator> | undefined,
  queryValidator: ReturnType<typeof compileValidator> | undefined,
  deps: RouterDeps,
): Promise<void> {
  const { requestId } = copied;
  let reply: Reply;
  let paramsValid = true;
  for (const name in copied.params) paramsValid &&= PATH_ID.test(copied.params[name]!);
  let prefetched: Promise<unknown> | undefined;
  let release: (() => void) | undefined;
  let principal: Awaited<ReturnType<typeof authenticate>> | undefined;
  try {
    if (copied.anonymous && deps.anonymousLimit) {
      const waitMs = deps.anonymousLimit.take(addressOf(res, copied));
      if (waitMs > 0) {
        deps.onLimited?.('anonymous');
        throw errors.rateLimited('too many requests without a valid credential from this address', waitMs / 1000);
      }
    }
    prefetched = route.prefetch && paramsValid ? route.prefetch(copied.params) : undefined;
    prefetched?.catch(() => undefined); // observed by the handler; dropped if authentication fails
    const bodyResult = await bodyPromise;
    // Nobody is left to answer; nothing of the request is read or written.
    if ('aborted' in bodyResult) throw errors.invalid('body: the connection closed before the body was complete');
    principal = await authenticate(route, copied.headers, deps.authenticators);
    if (principal && deps.bulkheads) release = await enterBulkhead(deps, principal);
    if (!paramsValid) throw errors.notFound('resource');
    const headers: RequestHeaders = route.idempotencyKey ? { ...copied.headers, idempotencyKey: validIdempotencyKey(copied.idempotencyKey) } : copied.headers;
    if ('tooLarge' in bodyResult) throw errors.tooLarge(deps.bodyLimitBytes);
    let body: unknown;
    if (bodyValidator) {
      if (!isJson(copied.headers.contentType)) throw errors.unsupportedMediaType();
      body = bodyValidator.check(parseJson(bodyResult.body), 'body');
    }
    const query = queryValidator ? queryValidator.check(parseQuery(copied.query), 'query') : {};
    reply = await route.handler({
      requestId,
      method: route.method,
      path: copied.path,
      params: copied.params,
      query,
      body,
      headers,
      principal,
      prefetched,
      clientAddress: copied.clientAddress,
    });
    if (route.audit && (principal?.kind === 'member' || (principal?.kind === 'apiKey' && !route.audit.membersOnly)) && reply.status < 300) {
      const { action, target, detail } = route.audit;
      const done = { params: copied.params, body, reply: reply.body };
      // The action happened: a failure to log it is reported, not turned into the client's error.
      await deps.recordAudit!(principal, copied.clientAddress, { action, target: target?.(done) ?? null, ...(detail ? { detail: detail(done) } : {}) }).catch((err: unknown) =>
        deps.log.error({ err, requestId, action }, 'audit entry not written'),
      );
    }
  } catch (err) {
    const { error, unexpected } = toHafatraError(err);
    if (unexpected) deps.log.error({ err, requestId, route: `${route.method} ${route.path}` }, 'request failed');
    // A wrong credential costs its address a token, as a request without one does.
    if (error.status === 401 && !copied.anonymous && deps.anonymousLimit && !state.aborted) deps.anonymousLimit.take(addressOf(res, copied));
    reply = errorReply(error, requestId);
  }
  release?.();
  if (reply.status === 429 && deps.slowRefusals && !state.aborted) {
    const pace = deps.slowRefusals.pace(principal?.orgId ?? `address ${addressOf(res, copied)}`, retryAfterMs(reply));
    if (pace.kind !== 'now') deps.onPaced?.(pace.kind === 'hold' ? 'held' : 'closed');
    if (pace.kind === 'close') {
      deps.accessLog?.({ requestId, method: UPPER[route.method], route: route.path, status: 429, startedAt: copied.startedAt, aborted: true });
      state.done = true;
      res.close();
      return;
    }
    if (pace.kind === 'hold') await deps.slowRefusals.hold(pace.ms);
  }
  // handle() must not reject: its caller only counts it, and a rejection would leave the client unanswered.
  const status = replySafely(res, state, requestId, reply, deps.log);
  deps.accessLog?.({ requestId, method: UPPER[route.method], route: route.path, status, startedAt: copied.startedAt, aborted: state.aborted });
}

/** A slot in the bulkhead of the request's tenant: its phone for a device, else its organization. */
async function enterBulkhead(deps: RouterDeps, principal: ApiPrincipal | DevicePrincipal | MemberPrincipal): Promise<() => void> {
  const [limit, bulkhead, key] =
    principal.kind === 'device' ? (['device', deps.bulkheads!.device, principal.deviceId] as const) : (['organization', deps.bulkheads!.organization, principal.orgId] as const);
  const now = bulkhead.tryEnter(key);
  if (now) return now;
  try {
    return await bulkhead.enter(key);
  } catch (err) {
    deps.onLimited?.(limit, principal);
    throw err;
  }
}

const retryAfterMs = (reply: Reply) => Number(reply.headers?.['retry-after'] ?? 1) * 1000;

const addressOf = (res: HttpResponse, copied: Copied) => copied.clientAddress || clientAddressFrom(res, copied.forwardedFor);

async function authenticate(route: AnyRoute, headers: RequestHeaders, a: Authenticators) {
  const auth: AuthMode = route.auth;
  if ('public' in auth) {
    if (route.browser) refuseCrossSite(route.method, headers.browser);
    return null;
  }
  if ('device' in auth) return a.device(headers.authorization);
  // An Authorization header decides alone; a browser's cookie is read only without one.
  if ('scope' in auth && (headers.authorization !== undefined || headers.cookie === undefined)) {
    const principal = await a.apiKey(headers.authorization);
    if (!principal.scopes.includes(auth.scope)) throw errors.forbidden(auth.scope);
    return principal;
  }
  if (headers.cookie === undefined) throw errors.signedOut();
  // Checked before the session is looked up: a forged request costs no database read.
  refuseCrossSite(route.method, headers.browser);
  const member = await a.member(headers.cookie);
  if ('scope' in auth && !member.scopes.includes(auth.scope)) throw errors.roleTooLow('admin');
  if ('role' in auth && !roleAtLeast(member.role, auth.role)) throw errors.roleTooLow(auth.role);
  return member;
}
