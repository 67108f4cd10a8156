import type { AppContext } from '../context/app-context.js';
import type { AccessLog } from '../http/access-log.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from '../http/uws.js';
import { guarded, replySafely } from '../http/guard.js';
import { errorReply, toHafatraError, type Reply } from '../http/reply.js';
import { readBody, type BodyResult } from '../http/body.js';
import { compileValidator } from '../schemas/validation.js';
import { errors } from '../errors/errors.js';
import { authenticateAppDevice, type AppHeaders } from './authenticate-app.js';
import { appJson, MOBILE_BODY_LIMIT, MOBILE_PREFIX, mobilePaths, noContent } from './mobile-route.js';
import { appSettings } from './app-settings.js';
import { phoneBaseUrl, phoneWebhooks, WEBHOOK_RECEIVER_PATH, type RequestOrigin } from './phone-webhooks.js';
import { WebhookEnvelope } from './webhook-events.js';
import { webhookSender } from './sql/select-webhook-sender.js';
import { signatureProblem } from './webhook-signature.js';
import { receiveWebhook, unverified } from './receive-webhook.js';
import type { StatusReportWriter } from '../dispatch/status-reports.js';
import { versionOfLabel } from './app-version.js';

/** What these routes read of a request, copied before the first await. */
interface Copied {
  headers: AppHeaders;
  origin: RequestOrigin;
  timestamp: string | undefined;
  signature: string | undefined;
}

type Handler = (copied: Copied, body: Buffer) => Promise<Reply>;

const envelope = compileValidator(WebhookEnvelope);

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw errors.invalid('body: not valid JSON');
  }
}

/**
 * GET /mobile/v1/webhooks and /settings (the phone's token), and the receiver of the webhooks
 * the phone fires (POST /mobile/v1/webhooks/events, no token: its X-Signature, by the key
 * /settings gave that phone). Registered beside the mobile router because they read what it does
 * not: the Host the phone reached us at, and the raw body the signature covers.
 */
export function attachPhoneWebhookRoutes(app: TemplatedApp, ctx: AppContext, reports: StatusReportWriter, accessLog?: AccessLog): void {
  const limit = Math.min(ctx.config.bodyLimitBytes, MOBILE_BODY_LIMIT);
  const register = (method: 'get' | 'post', path: string, handler: Handler) => {
    const pattern = MOBILE_PREFIX + path;
    for (const p of mobilePaths(path)) {
      app[method](
        p,
        guarded(ctx.log, `${method} ${pattern}`, (res: HttpResponse, req: HttpRequest, { state, requestId }) => {
          const startedAt = performance.now();
          const copied: Copied = {
            headers: { authorization: req.getHeader('authorization') || undefined, userAgent: req.getHeader('user-agent') || undefined },
            origin: { host: req.getHeader('host') || undefined, forwardedProto: req.getHeader('x-forwarded-proto') || undefined },
            timestamp: req.getHeader('x-timestamp') || undefined,
            signature: req.getHeader('x-signature') || undefined,
          };
          const body: Promise<BodyResult> = method === 'get' ? Promise.resolve({ ok: true, body: Buffer.alloc(0) }) : readBody(res, state, limit);
          void body
            .then((read) => {
              if ('aborted' in read) throw errors.invalid('body: the connection closed before the body was complete');
              if ('tooLarge' in read) throw errors.tooLarge(limit);
              return handler(copied, read.body);
            })
            .catch((err: unknown) => {
              const { error, unexpected } = toHafatraError(err);
              if (unexpected) ctx.log.error({ err, requestId, route: pattern }, 'mobile request failed');
              return errorReply(error, requestId);
            })
            .then((reply) => {
              const status = replySafely(res, state, requestId, reply, ctx.log);
              accessLog?.({ requestId, method: method.toUpperCase(), route: pattern, status, startedAt, aborted: state.aborted });
            });
        }),
      );
    }
  };

  register('get', '/webhooks', async ({ headers, origin }) => {
    await authenticateAppDevice(ctx, headers);
    return appJson(200, phoneWebhooks(phoneBaseUrl(ctx.config, origin)));
  });

  register('get', '/settings', async ({ headers }) => {
    const device = await authenticateAppDevice(ctx, headers);
    return appJson(200, await appSettings(ctx, device.deviceId));
  });

  register('post', WEBHOOK_RECEIVER_PATH, async ({ timestamp, signature }, body) => {
    const event = envelope.check(parseJson(body), 'body') as WebhookEnvelope;
    // Nothing is read or stored before the signature holds: an unknown phone, a phone without a
    // key yet, a revoked one and a wrong signature look alike.
    const sender = await webhookSender(ctx.db, event.deviceId);
    if (!sender || signatureProblem(sender.signingKey, body, timestamp, signature)) throw unverified();
    const device = { kind: 'device' as const, orgId: sender.orgId, deviceId: sender.deviceId, version: versionOfLabel(sender.appVersion), confirmsCancellation: sender.confirmsCancellation };
    await receiveWebhook(ctx, reports, device, event);
    return noContent();
  });
}
