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
import { holdStreamsLocally, releaseStreamsLocally, type AppEvent, type AppEventSignal } from './app-events.js';
import { AppStream } from './app-stream.js';
import { MOBILE_PREFIX, mobilePaths } from './mobile-route.js';

/** The reference server's keepalive period; NATs and proxies drop quieter connections. */
export const KEEPALIVE_MS = 15_000;
/** Messages of an organization-wide signal each woken phone is counted on to take (its pacing's minute). */
const SHARE_PER_WAKE = 25;
/** How long the phones woken in turn have before the others are woken for what they left. */
const BACKSTOP_MS = 500;

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
  const byDevice = new Map<string, Set<AppStream>>();
  const byOrg = new Map<string, Set<AppStream>>();
  const origin = randomBytes(8).toString('hex');
  const subscriber: Redis = createRedis(ctx.config.redisUrl, { name: 'hafatra-app-streams', subscriber: true });

  const countStreams = () => [...byDevice.values()].reduce((n, set) => n + set.size, 0);
  const streamsOf = (orgId: string, deviceId: string | null): Iterable<AppStream> => (deviceId ? (byDevice.get(deviceId) ?? []) : (byOrg.get(orgId) ?? []));
  const add = <K>(map: Map<K, Set<AppStream>>, key: K, s: AppStream) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(s);
  };
  const remove = <K>(map: Map<K, Set<AppStream>>, key: K, s: AppStream) => {
    const set = map.get(key);
    set?.delete(s);
    if (set?.size === 0) map.delete(key);
  };

  const deliver = (signal: AppEventSignal) => {
    for (const s of [...streamsOf(signal.orgId, signal.deviceId)]) {
      for (const e of signal.events) {
        if (signal.delayMs) s.sendLater(e, signal.delayMs);
        else s.send(e);
      }
    }
  };
  const enqueued: AppEvent = { event: 'MessageEnqueued' };
  let turn = 0;
  const backstops = new Map<string, NodeJS.Timeout>();
  /**
   * Work for one phone wakes it. Work for the organization wakes, in turn, as many of its phones
   * as it needs (a pull takes up to 100; a paced phone ~25 a minute): 200 phones pulling for each
   * send cost 200 pulls where one does. Should those leave work queued (paced, resting), the
   * others are woken a moment later.
   */
  const wake: WakePhones = (orgId, deviceId, count) => {
    if (deviceId) {
      for (const s of streamsOf(orgId, deviceId)) s.send(enqueued);
      return;
    }
    const all = [...streamsOf(orgId, null)];
    if (all.length === 0) return;
    const woken = count === undefined ? all.length : Math.min(all.length, Math.ceil(count / SHARE_PER_WAKE));
    const start = turn++ % all.length;
    for (let i = 0; i < woken; i++) all[(start + i) % all.length]!.send(enqueued);
    if (woken < all.length && !backstops.has(orgId)) {
      const timer = setTimeout(() => {
        backstops.delete(orgId);
        ctx.redis
          .zcard(ctx.keys.org(orgId).orgQueue())
          .then((left) => {
            if (left > 0) wake(orgId, null);
          })
          .catch((err: unknown) => ctx.log.warn({ err, orgId }, 'app phones not woken for what is left'));
      }, BACKSTOP_MS);
      timer.unref();
      backstops.set(orgId, timer);
    }
  };
  const workOrigin = ctx.dispatch.signals.holdPhonesLocally(wake);
  // An app phone's stream is its socket: the gauge (and the "no phone connected" alert) count it.
  const sockets = ctx.metrics.sources.phones;
  ctx.metrics.sources.phones = () => (sockets?.() ?? 0) + countStreams();
  const pulled = (deviceId: string): boolean => {
    const set = byDevice.get(deviceId);
    for (const s of set ?? []) s.pulled();
    return set !== undefined;
  };
  holdStreamsLocally(ctx, { origin, deliver, pulled });

  subscribeDeviceSignals(subscriber, ctx.keys, (text) => {
    const signal = JSON.parse(text) as { type: string; orgId: string; deviceId: string | null; count?: number; origin?: string };
    if (signal.type === 'work' && signal.origin !== workOrigin) wake(signal.orgId, signal.deviceId, signal.count);
    else if (signal.type === 'app-event' && signal.origin !== origin) deliver(signal as AppEventSignal);
    else if (signal.type === 'app-pulled' && signal.deviceId) pulled(signal.deviceId);
    else if (signal.type === 'revoked' && signal.deviceId) for (const s of [...streamsOf(signal.orgId, signal.deviceId)]) s.end();
  }).catch((err: unknown) => ctx.log.warn({ err }, 'app stream signal subscription failed'));
  // Signals missed while the subscriber reconnected: every phone pulls once and finds its work.
  subscriber.on('ready', () => {
    for (const set of byDevice.values()) for (const s of set) s.send(enqueued);
  });

  const keepalive = setInterval(() => {
    for (const set of byDevice.values()) for (const s of set) s.keepalive();
  }, KEEPALIVE_MS);
  keepalive.unref();

  const closed = (s: AppStream) => {
    remove(byDevice, s.deviceId, s);
    remove(byOrg, s.device.orgId, s);
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
        add(byDevice, device.deviceId, stream);
        add(byOrg, device.orgId, stream);
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
    if (!atLeast(stream.device.version, 1, 53, 1)) stream.send(enqueued);
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
    *held() {
      for (const set of byDevice.values()) yield* set;
    },
    count: countStreams,
    async close() {
      clearInterval(keepalive);
      for (const timer of backstops.values()) clearTimeout(timer);
      ctx.dispatch.signals.releasePhonesLocally(wake);
      releaseStreamsLocally(ctx);
      for (const set of [...byDevice.values()]) for (const s of [...set]) s.end();
      subscriber.disconnect();
    },
  };
}
