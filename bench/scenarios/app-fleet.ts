import { api } from '../lib/http.js';
import { bar, status } from '../lib/progress.js';
import { recipients, RECIPIENTS_PER_POST } from '../lib/recipients.js';
import { nowMs, sleep, summarize } from '../lib/stats.js';
import { startAppFleet, type AppFleet } from '../phones/app-fleet.js';
import type { PhoneGroup } from '../target/target.js';
import type { Scenario } from './scenario.js';

const PHONES = 200;
const LATENCY_BATCH = 50;
/** The rate the latency is taken at, and its goal. */
const PACED_RATE = 1_000;
const LATENCY_GOAL_MS = 50;
const WARMUP_MESSAGES = 2_000;
const BODY = 'Hafatra bench: your code is 482913.';

async function post(baseUrl: string, key: string, count: number, offset: number, deviceId?: string): Promise<{ ids: string[]; sentAt: number; acceptedAt: number } | string> {
  const sentAt = nowMs();
  const r = await api<{ messages: Array<{ id: string }> }>(baseUrl, key, 'POST', '/v1/messages', { to: recipients(count, offset), body: BODY, ...(deviceId ? { deviceId } : {}) });
  const acceptedAt = nowMs();
  if (r.status !== 202) return `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
  return { ids: r.body.messages.map((m) => m.id), sentAt, acceptedAt };
}

async function waitFor(done: () => number, total: number, timeoutMs: number, label: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (done() < total && Date.now() < deadline) {
    status(`${label} ${bar(done() / total)} ${done()}/${total}`);
    await sleep(100);
  }
  status('');
}

/** `total` messages POSTed by 4 loops of 500 recipients; delivered ÷ (last delivered − first POST). */
async function maxLoad(baseUrl: string, group: PhoneGroup, fleet: AppFleet, total: number, offset: number) {
  const started = nowMs();
  const ids: string[] = [];
  const refused: string[] = [];
  const posts = Math.ceil(total / RECIPIENTS_PER_POST);
  let next = 0;
  const loop = async () => {
    while (next < posts) {
      const i = next++;
      const r = await post(baseUrl, group.key, RECIPIENTS_PER_POST, offset + i * RECIPIENTS_PER_POST);
      if (typeof r === 'string') refused.push(r);
      else ids.push(...r.ids);
    }
  };
  await Promise.all(Array.from({ length: 4 }, loop));
  const delivered = () => ids.reduce((n, id) => n + (fleet.deliveredAt.has(id) ? 1 : 0), 0);
  await waitFor(delivered, ids.length, 120_000, 'app-fleet max load: delivered');
  const times = ids.map((id) => fleet.deliveredAt.get(id)).filter((t): t is number => t !== undefined);
  const last = times.length > 0 ? Math.max(...times) : nowMs();
  return { accepted: ids.length, delivered: delivered(), refused: refused.slice(0, 3), perSecond: delivered() / ((last - started) / 1000) };
}

/**
 * POSTs of LATENCY_BATCH at `rate`, each to one phone in turn (`deviceId`), so that a phone's
 * MessageEnqueued is that POST's: per POST, the first MessageEnqueued reaching its phone after the
 * POST left, less the 202's arrival (negative when the push beats the HTTP answer); per message,
 * its first appearance in a pull, less the 202's arrival.
 */
async function paced(baseUrl: string, group: PhoneGroup, fleet: AppFleet, rate: number, seconds: number, offset: number) {
  const intervalMs = (LATENCY_BATCH / rate) * 1000;
  const posted: { ids: string[]; sentAt: number; acceptedAt: number; deviceId: string }[] = [];
  const started = Date.now();
  const inflight: Promise<void>[] = [];
  let i = 0;
  while (Date.now() - started < seconds * 1000) {
    const due = started + i * intervalMs;
    if (due > Date.now()) await sleep(due - Date.now());
    const n = i++;
    const deviceId = group.phones[n % group.phones.length]!.deviceId;
    inflight.push(
      post(baseUrl, group.key, LATENCY_BATCH, offset + n * LATENCY_BATCH, deviceId).then((r) => {
        if (typeof r !== 'string') posted.push({ ...r, deviceId });
      }),
    );
    status(`app-fleet paced ${bar((Date.now() - started) / (seconds * 1000))} ${rate} msg/s`);
  }
  await Promise.all(inflight);
  const ids = posted.flatMap((p) => p.ids);
  await waitFor(() => ids.filter((id) => fleet.pulledAt.has(id)).length, ids.length, 15_000, 'app-fleet paced: pulled');
  const enqueued = posted.flatMap((p) => {
    const first = fleet.enqueuedAt.get(p.deviceId)?.find((t) => t >= p.sentAt);
    return first === undefined ? [] : [first - p.acceptedAt];
  });
  const pulled = posted.flatMap((p) => p.ids.flatMap((id) => (fleet.pulledAt.has(id) ? [fleet.pulledAt.get(id)! - p.acceptedAt] : [])));
  return { rate, messages: ids.length, enqueued: summarize(enqueued), pulled: summarize(pulled), missing: ids.length - pulled.length };
}

export const appFleet: Scenario = {
  name: 'app-fleet',
  method:
    `One organization of ${PHONES} phones speaking SMS Gateway for Android's mobile API (pacing raised), emulated in the bench process: ` +
    'each holds an event stream, pulls (GET /message) on MessageEnqueued and reports every job Processed, Sent and Delivered with one PATCH each. ' +
    `After ${WARMUP_MESSAGES.toLocaleString('en')} messages not counted, max load: messages POSTed by 4 loops of 500 recipients; throughput = delivered ÷ (last delivered − first POST). ` +
    `Then ${PACED_RATE.toLocaleString('en')} msg/s in POSTs of ${LATENCY_BATCH}, each for one phone in turn: latency = the first MessageEnqueued reaching that phone after the POST left − the 202 reaching the client, ` +
    'and, per message, its first pull − the 202.',
  async run({ target, settings }) {
    if (!target.appPhoneGroups) throw new Error('not available yet: app phones are made on the local server only');
    const [group] = await target.appPhoneGroups(1, settings.quick ? 20 : PHONES);
    const f = await startAppFleet({ baseUrl: target.url, phones: group!.phones });
    try {
      if (f.connected === 0) throw new Error(`no app phone connected: ${f.problems[0]}`);
      const total = settings.quick ? 500 : 10_000;
      if (!settings.quick) await maxLoad(target.url, group!, f, WARMUP_MESSAGES, 800_000);
      const max = await maxLoad(target.url, group!, f, total, 810_000);
      const rate = settings.quick ? Math.min(PACED_RATE, Math.max(50, max.perSecond / 2)) : PACED_RATE;
      const half = await paced(target.url, group!, f, rate, Math.max(2, settings.seconds), 900_000);
      return {
        figures: [
          { key: 'appFleet.deliveredPerSecond', label: 'app phones: messages POST → delivered per second', value: max.perSecond, unit: 'msg/s' },
          {
            key: 'appFleet.enqueuedLatency.p99',
            label: `app phones: 202 → MessageEnqueued p99 at ${Math.round(rate)} msg/s`,
            value: half.enqueued.p99,
            unit: 'ms',
            goal: { op: '<=', value: LATENCY_GOAL_MS },
          },
          { key: 'appFleet.enqueuedLatency.p50', label: `app phones: 202 → MessageEnqueued p50 at ${Math.round(rate)} msg/s`, value: half.enqueued.p50, unit: 'ms' },
          { key: 'appFleet.pulledLatency.p99', label: `app phones: 202 → job pulled p99 at ${Math.round(rate)} msg/s`, value: half.pulled.p99, unit: 'ms' },
        ],
        details: { phones: f.connected, failed: f.failed, max, paced: half, problems: f.problems },
      };
    } finally {
      await f.stop();
    }
  },
};
