import { api } from '../lib/http.js';
import { recipients, RECIPIENTS_PER_POST } from '../lib/recipients.js';
import { nowMs, sleep } from '../lib/stats.js';
import type { PhoneGroup } from '../target/target.js';
import type { ChaosLog } from './log.js';

// What fleet-chaos sends: a backlog, then high-priority messages one by one behind it.
const BODY = 'Hafatra bench: your code is 482913.';
const HIGH_EVERY_MS = 50;

export interface Sent {
  ids: string[];
  key: string;
  /** When the POST left this process. */
  postedAt: number;
}

async function send(baseUrl: string, key: string, to: string[], priority?: 'high'): Promise<Sent> {
  const postedAt = nowMs();
  const r = await api<{ messages: Array<{ id: string }> }>(baseUrl, key, 'POST', '/v1/messages', { to, body: BODY, ...(priority ? { priority } : {}) });
  if (r.status !== 202) throw new Error(`POST /v1/messages: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  return { ids: r.body.messages.map((m) => m.id), key, postedAt };
}

/** The backlog, every organization's share POSTed in sends of 500, organizations side by side. */
export async function postBacklog(baseUrl: string, groups: PhoneGroup[], total: number): Promise<Sent[]> {
  const perOrg = Math.ceil(total / groups.length);
  const sent: Sent[] = [];
  await Promise.all(
    groups.map(async (g, o) => {
      for (let n = 0; n < perOrg; n += RECIPIENTS_PER_POST) sent.push(await send(baseUrl, g.key, recipients(Math.min(RECIPIENTS_PER_POST, perOrg - n), o * perOrg + n)));
    }),
  );
  return sent;
}

/** High-priority messages, one per POST every HIGH_EVERY_MS, with how much backlog still waited for a phone. */
export async function postHigh(baseUrl: string, groups: PhoneGroup[], count: number, backlogIds: string[], log: ChaosLog) {
  const posts: Array<Promise<Sent>> = [];
  const waiting: number[] = [];
  const started = Date.now();
  for (let i = 0; i < count; i += 1) {
    const due = started + i * HIGH_EVERY_MS;
    if (due > Date.now()) await sleep(due - Date.now());
    waiting.push(backlogIds.reduce((n, id) => n + (log.arrivals.has(id) ? 0 : 1), 0));
    posts.push(send(baseUrl, groups[i % groups.length]!.key, recipients(1, 900_000 + i), 'high'));
  }
  return { sent: await Promise.all(posts), backlogWaiting: waiting };
}

/** POST → the first `jobs` frame carrying the message, ms. */
export function firstJobLatency(sent: Sent[], log: ChaosLog): number[] {
  return sent.flatMap((s) => s.ids.flatMap((id) => (log.arrivals.has(id) ? [Math.min(...log.arrivals.get(id)!.map(([, t]) => t)) - s.postedAt] : [])));
}
