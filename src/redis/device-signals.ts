import type { Redis } from './client.js';
import { isCluster } from './client.js';
import type { RedisKeys } from './keys.js';
import { pipelineByNode } from './pipeline-by-node.js';
import type { Logger } from '../logging/logger.js';
import { decodeDeviceSignal, encodeDeviceSignal, type DeviceSignal } from './device-signal.js';

/**
 * Signals between API processes about phones (device-signal.ts), whichever process holds their
 * socket. Published on the organization's channel (RedisKeys.deviceChannel); on a Redis Cluster
 * with sharded pub/sub (SPUBLISH/SSUBSCRIBE, Redis 7), so a signal crosses only the shard of its
 * channel rather than every node of the cluster; on one Redis with classic PUBLISH, which Redis
 * 6.2 has too.
 */
export async function publishDeviceSignals(redis: Redis, keys: RedisKeys, signals: readonly DeviceSignal[]): Promise<void> {
  const sharded = isCluster(redis);
  const replies = await pipelineByNode(
    redis,
    signals,
    (s) => keys.deviceChannel(s.orgId),
    (pipeline, s) => {
      const channel = keys.deviceChannel(s.orgId);
      if (sharded) pipeline.spublish(channel, encodeDeviceSignal(s));
      else pipeline.publish(channel, encodeDeviceSignal(s));
    },
  );
  const failed = replies.find(([err]) => err);
  if (failed) throw failed[0];
}

/**
 * Listens to every organization's channel on `subscriber` (a connection of its own, opened with
 * `subscriber: true`). Resolves once subscribed everywhere. A message that is not a signal, and
 * a handler that throws, are logged: nothing said on the channel can end the subscription.
 */
export async function subscribeDeviceSignals(subscriber: Redis, keys: RedisKeys, log: Logger, onSignal: (signal: DeviceSignal) => void): Promise<void> {
  const receive = (channel: string, text: string) => {
    const signal = decodeDeviceSignal(text);
    if (!signal) {
      log.warn({ channel, text: text.slice(0, 200) }, 'device signal ignored: not one this version reads');
      return;
    }
    try {
      onSignal(signal);
    } catch (err) {
      log.error({ err, channel, type: signal.type }, 'device signal handling failed');
    }
  };
  const channels = keys.deviceChannels();
  if (isCluster(subscriber)) {
    subscriber.on('smessage', receive);
    // One SSUBSCRIBE per channel: the channels have different hash tags, so different slots.
    await Promise.all(channels.map((c) => subscriber.ssubscribe(c)));
    return;
  }
  subscriber.on('message', receive);
  await subscriber.subscribe(...channels);
}
