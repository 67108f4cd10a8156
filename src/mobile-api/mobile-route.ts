import type { Static, TSchema } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from '../http/uws.js';
import type { AccessLog } from '../http/access-log.js';
import type { Reply } from '../http/reply.js';
import { errorReply, toHafatraError } from '../http/reply.js';
import { guarded, replySafely } from '../http/guard.js';
import { parseJson, readBody } from '../http/body.js';
import { compileValidator } from '../schemas/validation.js';
import { clientAddressOf } from '../http/client-address.js';
import { errors } from '../errors/errors.js';
import { authenticateAppDevice, type AppDevice, type AppHeaders } from './authenticate-app.js';

/** The app's "API URL" is `<public base>/mobile/v1`. */
export const MOBILE_PREFIX = '/mobile/v1';
/** What any mobile call may carry: a registration, a report of a few messages. */
export const MOBILE_BODY_LIMIT = 256 * 1024;

export interface MobileRequest<B> {
  requestId: string;
  /** The calling phone; null on routes with `auth: 'none'` (they read the headers themselves). */
  device: AppDevice | null;
  body: B;
  query: URLSearchParams;
  headers: AppHeaders;
  clientAddress: string;
}

export interface MobileRoute<BS extends TSchema | undefined = TSchema | undefined> {
  method: 'get' | 'post' | 'patch';
  /** After the prefix: `/device`. */
  path: string;
  /** device: a mobile phone's token (authenticateAppDevice); none: the handler checks its own credential. */
  auth: 'device' | 'none';
  body?: BS;
  clientAddress?: true;
  handler: (req: MobileRequest<BS extends TSchema ? Static<BS> : undefined>) => Promise<Reply>;
}

/** A JSON answer exactly as the app's Ktor client wants it: `application/json`, no parameters needed. */
export function appJson(status: number, body: unknown): Reply {
  return { status, raw: { body: Buffer.from(JSON.stringify(body), 'utf8'), contentType: 'application/json' } };
}

export const noContent = (): Reply => ({ status: 204 });

// biome-ignore lint/suspicious/noExplicitAny: each route's own types are checked where it is declared.
export type AnyMobileRoute = MobileRoute<any>;

export function mobileRoute<BS extends TSchema | undefined = undefined>(route: MobileRoute<BS>): AnyMobileRoute {
  return route;
}

/** The paths a route answers on: the app builds URLs by concatenation, so `<base>//device` happens. */
export const mobilePaths = (path: string) => [MOBILE_PREFIX + path, `${MOBILE_PREFIX}/${path}`];

/**
 * The mobile API's own small router. Its conventions are the app's, not the public API's: JSON
 * whatever the Content-Type (the app always sends application/json; a proxy may drop it), the
 * status codes of the reference server, and no OpenAPI entry (its contract is the app's,
 * docs/device-protocol.md "SMS Gateway for Android"). Errors keep Hafatra's error shape: the app
 * shows their text and decides on the status alone.
 */
export function registerMobileRoutes(app: TemplatedApp, ctx: AppContext, routes: AnyMobileRoute[], accessLog?: AccessLog): void {
  const limit = Math.min(ctx.config.bodyLimitBytes, MOBILE_BODY_LIMIT);
  for (const route of routes) {
    const validator = route.body ? compileValidator(route.body) : undefined;
    const pattern = MOBILE_PREFIX + route.path;
    for (const path of mobilePaths(route.path)) {
      app[route.method](
        path,
        guarded(ctx.log, `${route.method} ${pattern}`, (res: HttpResponse, req: HttpRequest, { state, requestId }) => {
          const startedAt = performance.now();
          const headers: AppHeaders = { authorization: req.getHeader('authorization') || undefined, userAgent: req.getHeader('user-agent') || undefined };
          const query = new URLSearchParams(req.getQuery() ?? '');
          const clientAddress = route.clientAddress ? clientAddressOf(res, req, ctx.config.trustProxy) : '';
          const body = route.method === 'get' ? Promise.resolve({ ok: true as const, body: Buffer.alloc(0) }) : readBody(res, state, limit);
          void (async (): Promise<Reply> => {
            try {
              const read = await body;
              if ('aborted' in read) throw errors.invalid('body: the connection closed before the body was complete');
              const device = route.auth === 'device' ? await authenticateAppDevice(ctx, headers) : null;
              if ('tooLarge' in read) throw errors.tooLarge(limit);
              const parsed = validator ? validator.check(parseJson(read.body), 'body') : undefined;
              return await route.handler({ requestId, device, body: parsed, query, headers, clientAddress });
            } catch (err) {
              const { error, unexpected } = toHafatraError(err);
              if (unexpected) ctx.log.error({ err, requestId, route: pattern }, 'mobile request failed');
              return errorReply(error, requestId);
            }
          })().then((reply) => {
            const status = replySafely(res, state, requestId, reply, ctx.log);
            accessLog?.({ requestId, method: route.method.toUpperCase(), route: pattern, status, startedAt, aborted: state.aborted });
          });
        }),
      );
    }
  }
}
