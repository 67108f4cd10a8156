import calculateSlot from 'cluster-key-slot';
import type { ChainableCommander } from 'ioredis';
import { isCluster, type Redis } from './client.js';

export type PipelineReply = [Error | null, unknown];

/**
 * Sends one command per item in as few round trips as the deployment allows, for reads and writes
 * over many organizations at once (sweeps, revocation checks): one pipeline on one Redis; on a
 * cluster, one pipeline per master, side by side, because a cluster pipeline may only hold keys its
 * node serves. `keyOf` is the key the item's command touches. Replies come back in item order.
 */
export async function pipelineByNode<T>(redis: Redis, items: readonly T[], keyOf: (item: T) => string, add: (pipeline: ChainableCommander, item: T) => void): Promise<PipelineReply[]> {
  if (items.length === 0) return [];
  if (!isCluster(redis)) {
    const pipeline = redis.pipeline();
    for (const item of items) add(pipeline, item);
    return ((await pipeline.exec()) ?? []) as PipelineReply[];
  }
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    const slot = calculateSlot(keyOf(item));
    // Before the client has learnt the slot map, each slot is its own group.
    const node = redis.slots[slot]?.[0] ?? `slot:${slot}`;
    const group = groups.get(node);
    if (group) group.push(i);
    else groups.set(node, [i]);
  });
  const replies: PipelineReply[] = new Array(items.length);
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      const pipeline = redis.pipeline();
      for (const i of indexes) add(pipeline, items[i]!);
      const results = (await pipeline.exec().catch((err: Error) => indexes.map((): PipelineReply => [err, null]))) ?? [];
      indexes.forEach((item, j) => {
        replies[item] = (results[j] as PipelineReply | undefined) ?? [new Error('no reply in the pipeline'), null];
      });
    }),
  );
  return replies;
}
