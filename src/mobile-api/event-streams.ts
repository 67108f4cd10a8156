import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context/app-context.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from '../http/uws.js';
import type { AccessLog } from '../http/access-log.js';
import type { PresenceLease, HeldSocket } from '../devices/presence.js';
import type { WakePhones } from '../dispatch-queue/work-signals.js';
import { guarded, replySafely } from '../http/guard.js';
import { errorReply, toHafatraError } from '../http/reply.js';
import { statusLine } from '../http/status-text.js';
import { createRedis, type Redis } from '../redis/connection.js';
import { subscribeDeviceSignals } from '../redis/device-signals.js';
import { atLeast } from './app-version.js';
import { authenticateAppDevice } from './authenticate-app.js';
import { holdStreamsLocally, releaseStreamsLocally } from '../devices/app-events.js';
import { AppStream } from './app-stream.js';
import { StreamRegistry } from './stream-registry.js';
import { MOBILE_PREFIX, mobilePaths } from './mobile-route.js';

/** The reference server's keepalive period; NATs and proxies drop quieter connections. */
export const KEEPALIVE_MS = 15_000;

export interface AppStreamsDeps {
  lease: PresenceLease;
  markSocket(deviceId: string, connected: boolean, generation?: number, processId?: string): Promise<number | null>;
  accessLog?: AccessLog;
}

export interface AppStreams {
  /** The streams open on this process (for the presence lease). */
  held(): Iterable<HeldSocket>;
  /** How many streams this process holds (tests, metrics). */
  count(): number;
  close(): Promise<void>;
}

/**
 * `GET /mobile/v1/events`: the Server-Sent Events stream an app phone holds in `SSE_ONLY` mode.
 * It is the mobile phone's socket: while it is open the phone is online (presence lease, as for
 * native sockets), work queued for it becomes `MessageEnqueued` on whichever API process holds
 * the stream (the work signals between processes), MessageCancelled and the sync events come
 * through the organization's device channel (pushAppEvent), and a revoke closes it.
 */
export function attachAppStreams(app: TemplatedApp, ctx: AppContext, deps: AppStreamsDeps): AppStreams {
  const streams = new StreamRegistry(ctx);
  const origin = randomBytes(8).toString('hex');
  const subscriber: Redis = createRedis(ctx.config.redisUrl, { name: 'hafatra-app-streams', subscriber: true });
  const wake: WakePhones = (orgId, deviceId, count) => streams.wake(orgId, deviceId, count);
  const workOrigin = ctx.dispatch.signals.holdPhonesLocally(wake);
  // An app phone's stream is its socket: the gauge (and the "no phone connected" alert) count it.
  const sockets = ctx.metrics.sources.phones;
  ctx.metrics.sources.phones = () => (sockets?.() ?? 0) + streams.count();
  holdStreamsLocally(ctx, { origin, deliver: (signal) => streams.deliver(signal), pulled: (deviceId) => streams.pulled(deviceId) });

  subscribeDeviceSignals(subscriber, ctx.keys, ctx.log, (signal) => {
    if (signal.type === 'work' && signal.origin !== workOrigin) streams.wake(signal.orgId, signal.deviceId, signal.count);
    else if (signal.type === 'app-event' && signal.origin !== origin) streams.deliver(signal);
    else if (signal.type === 'app-pulled') streams.pulled(signal.deviceId);
    else if (signal.type === 'revoked') for (const s of streams.of(signal.orgId, signal.deviceId)) s.end();
  }).catch((err: unknown) => ctx.log.warn({ err }, 'app stream signal subscription failed'));
  // Signals missed while the subscriber reconnected: every phone pulls once and finds its work.
  subscriber.on('ready', () => streams.wakeAll());

  const keepalive = setInterval(() => {
    for (const s of streams.all()) s.keepalive();
  }, KEEPALIVE_MS);
  keepalive.unref();

  const closed = (s: AppStream) => {
    streams.remove(s);
    // A stream whose open was never saved has nothing to undo (and a newer one may be open).
    void s.opened.then((generation) => {
      if (generation === null) return;
      deps.markSocket(s.deviceId, false, generation).catch((err: unknown) => {
        ctx.log.warn({ err }, 'stream close not saved; retried with the presence lease');
        deps.lease.closeFailed(s.deviceId, generation);
      });
    });
  };

  const route = `${MOBILE_PREFIX}/events`;
  const handler = guarded(ctx.log, `get ${route}`, (res: HttpResponse, req: HttpRequest, { state, requestId }) => {
    const startedAt = performance.now();
    const headers = { authorization: req.getHeader('authorization') || undefined, userAgent: req.getHeader('user-agent') || undefined };
    authenticateAppDevice(ctx, headers)
      .then((device) => {
        if (state.aborted || state.done) return;
        state.done = true;
        const stream = new AppStream(res, device, closed);
        state.onAbort = () => stream.markClosed();
        res.cork(() => {
          res.writeStatus(statusLine(200));
          res.writeHeader('content-type', 'text/event-stream');
          res.writeHeader('cache-control', 'no-cache');
          // nginx passes the stream on as it comes (docs/deploy).
          res.writeHeader('x-accel-buffering', 'no');
          res.writeHeader('x-request-id', requestId);
          res.write(':connected\n\n');
        });
        deps.accessLog?.({ requestId, method: 'GET', route, status: 200, startedAt, aborted: false });
        streams.add(stream);
        stream.opened = onOpen(stream);
      })
      .catch((err: unknown) => {
        const { error, unexpected } = toHafatraError(err);
        if (unexpected) ctx.log.error({ err, requestId }, 'app stream authentication failed');
        const status = replySafely(res, state, requestId, errorReply(error, requestId), ctx.log);
        deps.accessLog?.({ requestId, method: 'GET', route, status, startedAt, aborted: state.aborted });
      });
  });
  for (const path of mobilePaths('/events')) app.get(path, handler);

  /**
   * The phone may have started with a random signing key and no webhooks (it syncs them in
   * parallel with its first registration): both syncs are asked for on every connect. Apps
   * before 1.53.1 do not pull on connect: they are told to.
   */
  async function onOpen(stream: AppStream): Promise<number | null> {
    stream.send({ event: 'WebhooksUpdated' });
    stream.send({ event: 'SettingsUpdated' });
    if (!atLeast(stream.device.version, 1, 53, 1)) stream.send({ event: 'MessageEnqueued' });
    try {
      await deps.lease.ready;
      if (stream.closed) return null;
      return await deps.markSocket(stream.deviceId, true, undefined, deps.lease.processId);
    } catch (err) {
      ctx.log.warn({ err, deviceId: stream.deviceId }, 'stream open not saved');
      return null;
    }
  }

  return {
    held: () => streams.all(),
    count: () => streams.count(),
    async close() {
      clearInterval(keepalive);
      streams.stop();
      ctx.dispatch.signals.releasePhonesLocally(wake);
      releaseStreamsLocally(ctx);
      for (const s of [...streams.all()]) s.end();
      subscriber.disconnect();
    },
  };
}
