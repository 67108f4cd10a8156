import { measureHelloWorld } from '../ceilings/http.js';
import { measurePostgresInsert } from '../ceilings/postgres.js';
import { measureRedisEnqueue } from '../ceilings/redis.js';
import { RECIPIENTS_PER_POST } from '../lib/recipients.js';
import type { Figure } from '../lib/results.js';
import { best, toPoints } from '../lib/sweep.js';
import type { Scenario } from './scenario.js';

export const ceilingKeys = {
  postMessages: 'ceilings.hello-post.messagesPerSecond',
  postP99: (c: number) => `ceilings.hello-post.p99.c${c}`,
  get: 'ceilings.hello-get.requestsPerSecond',
  getP99: (c: number) => `ceilings.hello-get.p99.c${c}`,
  postgres: 'ceilings.postgres.rowsPerSecond',
  redis: 'ceilings.redis.messagesPerSecond',
};

export const ceilings: Scenario = {
  name: 'ceilings',
  method:
    "A bare uWebSockets.js server (bench/ceilings/hello-uws.ts) on the API's CPU under the same autocannon sweep as bulk-send " +
    '(POST of the same 500-recipient body, answered 202) and read (GET); 500-row UNNEST inserts into a scratch table shaped like ' +
    'messages from 4 connections; one EVAL per 500 messages (ZADD + HSET each) into Redis, 4 in flight.',
  async run({ target, settings }) {
    const hello = await measureHelloWorld(settings);
    const figures: Figure[] = [
      { key: ceilingKeys.postMessages, label: 'hello-world POST ×500 recipients', value: best(hello.post).okPerSecond * RECIPIENTS_PER_POST, unit: 'msg/s' },
      { key: ceilingKeys.get, label: 'hello-world GET', value: best(hello.get).okPerSecond, unit: 'req/s' },
      ...hello.post.map((r) => ({ key: ceilingKeys.postP99(r.connections), label: `hello-world POST p99 c=${r.connections}`, value: r.p99, unit: 'ms' })),
      ...hello.get.map((r) => ({ key: ceilingKeys.getP99(r.connections), label: `hello-world GET p99 c=${r.connections}`, value: r.p99, unit: 'ms' })),
    ];
    const skipped: string[] = [];
    if (target.databaseUrl) {
      const rows = await measurePostgresInsert(target.databaseUrl, settings.seconds);
      figures.push({ key: ceilingKeys.postgres, label: 'Postgres UNNEST ×500 inserts', value: rows, unit: 'rows/s' });
    } else skipped.push('postgres: needs the local server (no direct database access to a remote deployment)');
    if (target.redisUrl) {
      const messages = await measureRedisEnqueue(target.redisUrl, settings.seconds);
      figures.push({ key: ceilingKeys.redis, label: 'Redis ZADD+HSET of 500 per EVAL', value: messages, unit: 'msg/s' });
    } else skipped.push('redis: needs the local server (no direct Redis access to a remote deployment)');
    return {
      figures,
      sweep: [
        ...toPoints('POST /v1/messages (500 recipients), msg/s', 'hello-world ceiling', hello.post, RECIPIENTS_PER_POST),
        ...toPoints('GET /v1/messages/{id}, req/s', 'hello-world ceiling', hello.get),
      ],
      details: { hello, skipped },
    };
  },
};
