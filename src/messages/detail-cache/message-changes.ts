import { randomBytes } from 'node:crypto';
import { createRedis, type Redis } from '../../redis/connection.js';
import { isCluster } from '../../redis/client.js';
import type { RedisKeys } from '../../redis/keys.js';
import type { Logger } from '../../logging/logger.js';
import { MessageDetailCache } from './detail-cache.js';

/** Where the ids of committed message changes go (a transaction's, once it commits). */
export interface ChangeSink {
  changed(ids: readonly string[]): void;
}

/** A signal's body when any message may have changed (months dropped). */
const EVERYTHING = '*';
/** Ids per published signal: a claim's or a report round's changes fit in one. */
const IDS_PER_SIGNAL = 2_000;
/**
 * How long a kept body may answer: the bound on a change whose signal was lost (a publish that
 * failed while the subscriber stayed connected). Every change heard drops its body at once.
 */
export const BODY_TTL_MS = 10_000;
/**
 * The least time between two publishes of a process: a fleet's claims and reports end a statement
 * hundreds of times a second, and a PUBLISH each (its write, and its echo to this process's own
 * subscriber) cost the API ~4% more CPU in the fleet bench. The other processes hear a change
 * this much later at most.
 */
export const PUBLISH_INTERVAL_MS = 10;

/**
 * Message changes, told to every API process's cache of GET /v1/messages/{id} bodies: this
 * process's own cache drops them at once, the others hear them on one Redis channel: the ids
 * of every change since the last publish together, at most one publish per PUBLISH_INTERVAL_MS.
 * Every status change goes through the transition statement, whose callers give it a sink: so
 * no change is left untold.
 */
export class MessageChanges implements ChangeSink {
  readonly cache: MessageDetailCache;
  /** Marks this process's own signals, which its subscriber skips (its cache heard them at once). */
  private readonly origin = randomBytes(6).toString('hex');
  private pending: string[] = [];
  private everything = false;
  private scheduled = false;
  private publishedAt = Number.NEGATIVE_INFINITY;
  private failing = false;

  constructor(private readonly deps: { redis: Redis; keys: RedisKeys; log: Logger; maxEntries: number }) {
    this.cache = new MessageDetailCache(deps.maxEntries, BODY_TTL_MS);
  }

  /** Published whatever this process's own cache size: the others' may keep bodies. */
  changed(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.cache.changed(ids);
    for (const id of ids) this.pending.push(id);
    this.schedule();
  }

  /** Any message may have changed: every process drops every body. */
  changedEverything(): void {
    this.cache.clear();
    this.everything = true;
    this.schedule();
  }

  /**
   * Hears the other processes' changes (an API process). The cache is on only while subscribed:
   * a connection lost may have lost signals, so it is emptied and off until subscribed again.
   */
  listen(redisUrl: string): () => Promise<void> {
    if (this.deps.maxEntries === 0) return async () => {};
    const subscriber = createRedis(redisUrl, { name: 'hafatra-message-changes', subscriber: true });
    const channel = this.deps.keys.messageChanges();
    const cluster = isCluster(subscriber);
    let stopped = false;
    subscriber.on(cluster ? 'smessage' : 'message', (from: string, text: string) => {
      if (from === channel) this.heard(text);
    });
    const subscribe = () =>
      (cluster ? subscriber.ssubscribe(channel) : subscriber.subscribe(channel)).then(
        () => {
          if (!stopped) this.cache.enable();
        },
        (err: unknown) => this.deps.log.warn({ err }, 'message changes: subscription failed; bodies are not kept'),
      );
    subscriber.on('ready', () => void subscribe());
    for (const lost of ['close', 'reconnecting', 'end']) subscriber.on(lost, () => this.cache.disable());
    return async () => {
      stopped = true;
      this.cache.disable();
      await subscriber.quit().catch(() => undefined);
    };
  }

  private heard(text: string): void {
    if (!this.cache.watching) return;
    const bar = text.indexOf('|');
    if (bar < 0 || text.slice(0, bar) === this.origin) return;
    const body = text.slice(bar + 1);
    if (body === EVERYTHING) this.cache.clear();
    else this.cache.changed(body.split(','));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.publishedAt + PUBLISH_INTERVAL_MS - performance.now();
    if (wait <= 0) setImmediate(() => void this.publish());
    else setTimeout(() => void this.publish(), wait);
  }

  private async publish(): Promise<void> {
    this.scheduled = false;
    this.publishedAt = performance.now();
    const ids = this.pending;
    this.pending = [];
    const signals = this.everything ? [`${this.origin}|${EVERYTHING}`] : [];
    this.everything = false;
    for (let i = 0; i < ids.length; i += IDS_PER_SIGNAL) signals.push(`${this.origin}|${ids.slice(i, i + IDS_PER_SIGNAL).join(',')}`);
    const { redis, keys, log } = this.deps;
    const channel = keys.messageChanges();
    try {
      await Promise.all(signals.map((s) => (isCluster(redis) ? redis.spublish(channel, s) : redis.publish(channel, s))));
      if (this.failing) log.info('message changes published again');
      this.failing = false;
    } catch (err) {
      if (!this.failing) log.warn({ err }, `message changes not published: other API processes may answer a changed message's old body for up to ${BODY_TTL_MS / 1000} s`);
      this.failing = true;
    }
  }
}
