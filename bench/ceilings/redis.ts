import { Redis } from 'ioredis';
import { recipients, RECIPIENTS_PER_POST } from '../lib/recipients.js';
import { timed } from '../lib/progress.js';
import { newIds } from '../../src/ids/ids.js';

/**
 * The Redis ceiling: the enqueue of one 500-recipient send done directly, one EVAL per batch that
 * ZADDs the 500 ids to a queue and HSETs 500 fields, each as one variadic command like
 * lua/enqueueMessages, `parallel` calls in flight. Keys share a hash tag like the API's, under a
 * prefix of their own. Returns messages per second.
 */
const ENQUEUE = `
local n = #ARGV / 2
local members, fields = {}, {}
for i = 1, n do
  members[#members + 1] = ARGV[i * 2 - 1]
  members[#members + 1] = ARGV[i * 2]
  fields[#fields + 1] = ARGV[i * 2]
  fields[#fields + 1] = ARGV[i * 2 - 1]
end
redis.call('ZADD', KEYS[1], unpack(members))
redis.call('HSET', KEYS[2], unpack(fields))
return n`;

export async function measureRedisEnqueue(redisUrl: string, seconds: number, parallel = 4): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const prefix = `bench-ceiling:${Date.now()}`;
  try {
    const sha = (await redis.script('LOAD', ENQUEUE)) as string;
    const count = recipients(RECIPIENTS_PER_POST).length;
    let messages = 0;
    let call = 0;
    const deadline = Date.now() + seconds * 1000;
    const started = Date.now();
    const loop = async () => {
      while (Date.now() < deadline) {
        const ids = newIds('message', count);
        const now = Date.now();
        const args = ids.flatMap((id) => [String(now), id]);
        const tag = `{org${call++ % 16}}`;
        await redis.evalsha(sha, 2, `${prefix}:${tag}:queue`, `${prefix}:${tag}:msgs`, ...args);
        messages += count;
      }
    };
    await timed('ceiling redis ZADD+HSET ×500', seconds, Promise.all(Array.from({ length: parallel }, loop)));
    return messages / ((Date.now() - started) / 1000);
  } finally {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
}
