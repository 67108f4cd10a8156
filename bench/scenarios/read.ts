import { apiExpect } from '../lib/http.js';
import { runLoad, type LoadResult } from '../lib/load.js';
import { sendBody } from '../lib/recipients.js';
import { best, toPoints } from '../lib/sweep.js';
import { ceilingKeys } from './ceilings.js';
import type { Scenario } from './scenario.js';
import type { Figure } from '../lib/results.js';
import type { StoredMessages } from '../target/target.js';

const SEED_POSTS = 4;

export const read: Scenario = {
  name: 'read',
  method:
    `Seeds ${SEED_POSTS} sends of 500 recipients in one organization, then autocannon GETs /v1/messages/{id} over the ` +
    'concurrency sweep, cycling through the 2,000 ids, and GET /v1/messages?limit=100 at the highest concurrency of the sweep. ' +
    'With --stored N, also at the highest concurrency: GET /v1/messages/{id} of 2,000 stored messages picked at random, and the ' +
    "first page of the stored messages' organization.",
  async run({ target, settings }) {
    const [tenant] = await target.tenants(1);
    const key = tenant!.key;
    const ids: string[] = [];
    for (let i = 0; i < SEED_POSTS; i += 1) {
      const sent = await apiExpect<{ messages: Array<{ id: string }> }>(202, target.url, key, 'POST', '/v1/messages', sendBody(500, i * 500));
      ids.push(...sent.messages.map((m) => m.id));
    }
    const paths = ids.map((id) => `/v1/messages/${id}`);
    const headers = { authorization: `Bearer ${key}` };
    const byId: LoadResult[] = [];
    for (const connections of settings.sweep) {
      byId.push(
        await runLoad({
          label: 'read by id',
          url: `${target.url}/v1/messages/${ids[0]}`,
          method: 'GET',
          connections,
          seconds: settings.seconds,
          headers,
          paths,
        }),
      );
    }
    const list = await runLoad({
      label: 'read list',
      url: `${target.url}/v1/messages?limit=100`,
      method: 'GET',
      connections: Math.max(...settings.sweep),
      seconds: settings.seconds,
      headers,
    });
    const top = best(byId);
    const stored = target.stored ? await readStored(target.stored, target.url, Math.max(...settings.sweep), settings.seconds) : undefined;
    return {
      figures: [
        ...(stored?.figures ?? []),
        {
          key: 'read.getByIdPerSecond',
          label: 'GET /v1/messages/{id} per second (best of sweep)',
          value: top.okPerSecond,
          unit: 'req/s',
          goal: { op: '>=', value: 15_000 },
          ceilingKey: ceilingKeys.get,
        },
        { key: 'read.getById.p99', label: `GET by id p99 (c=${top.connections})`, value: top.p99, unit: 'ms', ceilingKey: ceilingKeys.getP99(top.connections) },
        { key: 'read.listPerSecond', label: `GET /v1/messages?limit=100 per second (c=${list.connections})`, value: list.okPerSecond, unit: 'req/s', ceilingKey: ceilingKeys.get },
        { key: 'read.list.p99', label: `GET list p99 (c=${list.connections})`, value: list.p99, unit: 'ms', ceilingKey: ceilingKeys.getP99(list.connections) },
      ],
      sweep: toPoints('GET /v1/messages/{id}, req/s', 'read by id', byId),
      details: { byId, list, ...(stored ? { stored: stored.details } : {}) },
    };
  },
};

/** The reads of messages seeded with --stored: random ids across all their months, and their organization's newest page. */
async function readStored(stored: StoredMessages, url: string, connections: number, seconds: number): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const headers = { authorization: `Bearer ${stored.key}` };
  const paths = Array.from({ length: 2000 }, () => `/v1/messages/${stored.idOf(Math.floor(Math.random() * stored.count))}`);
  const byId = await runLoad({ label: 'read stored by id', url: `${url}${paths[0]}`, method: 'GET', connections, seconds, headers, paths });
  const list = await runLoad({ label: 'read stored list', url: `${url}/v1/messages?limit=100`, method: 'GET', connections, seconds, headers });
  const n = stored.count.toLocaleString('en');
  return {
    figures: [
      { key: 'read.stored.getByIdPerSecond', label: `GET /v1/messages/{id}, random ids of ${n} stored (c=${connections})`, value: byId.okPerSecond, unit: 'req/s', ceilingKey: ceilingKeys.get },
      { key: 'read.stored.getById.p99', label: `GET stored by id p99 (c=${connections})`, value: byId.p99, unit: 'ms' },
      { key: 'read.stored.listPerSecond', label: `GET /v1/messages?limit=100 of the ${n} stored (c=${connections})`, value: list.okPerSecond, unit: 'req/s', ceilingKey: ceilingKeys.get },
      { key: 'read.stored.list.p99', label: `GET stored list p99 (c=${connections})`, value: list.p99, unit: 'ms' },
      { key: 'read.stored.diskGiB', label: `disk of ${n} stored messages and their timelines, indexes included`, value: (stored.messagesBytes + stored.timelineBytes) / 2 ** 30, unit: 'GiB' },
    ],
    details: { byId, list, seedSeconds: stored.seedSeconds, messagesBytes: stored.messagesBytes, timelineBytes: stored.timelineBytes },
  };
}
