import type { Redis } from './client.js';
import { isCluster } from './client.js';
import type { RedisKeys } from './keys.js';
import { pipelineByNode } from './pipeline-by-node.js';

/**
 * Signals between API processes about phones, whichever process holds their socket: work queued
 * for an organization, jobs withdrawn from a phone, a phone revoked. Published on the
 * organization's channel (RedisKeys.deviceChannel); on a Redis Cluster with sharded pub/sub
 * (SPUBLISH/SSUBSCRIBE, Redis 7), so a signal crosses only the shard of its channel rather than
 * every node of the cluster; on one Redis with classic PUBLISH, which Redis 6.2 has too.
 */
export interface DeviceSignal {
  type: string;
  orgId: string;
}

export async function publishDeviceSignals(redis: Redis, keys: RedisKeys, signals: readonly DeviceSignal[]): Promise<void> {
  const sharded = isCluster(redis);
  const replies = await pipelineByNode(
    redis,
    signals,
    (s) => keys.deviceChannel(s.orgId),
    (pipeline, s) => {
      const channel = keys.deviceChannel(s.orgId);
      if (sharded) pipeline.spublish(channel, JSON.stringify(s));
      else pipeline.publish(channel, JSON.stringify(s));
    },
  );
  const failed = replies.find(([err]) => err);
  if (failed) throw failed[0];
}

/**
 * Listens to every organization's channel on `subscriber` (a connection of its own, opened with
 * `subscriber: true`). Resolves once subscribed everywhere.
 */
export async function subscribeDeviceSignals(subscriber: Redis, keys: RedisKeys, onSignal: (text: string) => void): Promise<void> {
  const channels = keys.deviceChannels();
  if (isCluster(subscriber)) {
    subscriber.on('smessage', (_channel: string, text: string) => onSignal(text));
    // One SSUBSCRIBE per channel: the channels have different hash tags, so different slots.
    await Promise.all(channels.map((c) => subscriber.ssubscribe(c)));
    return;
  }
  subscriber.on('message', (_channel: string, text: string) => onSignal(text));
  await subscriber.subscribe(...channels);
}
