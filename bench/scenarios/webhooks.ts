import { apiExpect } from '../lib/http.js';
import { bar, status, timed } from '../lib/progress.js';
import { RECIPIENTS_PER_POST, sendBody } from '../lib/recipients.js';
import { NotAvailable } from '../lib/results.js';
import { nowMs, sleep } from '../lib/stats.js';
import { measureReceiverCeiling, startCountingReceiver, type CountingReceiver } from '../webhooks/receiver.js';
import type { Scenario } from './scenario.js';

const EVENT = 'message.queued';
/**
 * Not counted. 1,000 were too few: the first measured phase was still speeding up (the hanging
 * endpoint's phase came out 5-27% faster than it). Alternating runs, 1,000 against 5,000: alone
 * 3,375 / 2,809 / 2,939 against 4,174 / 3,844 / 3,056 deliveries/s; loss +7.9 / -27.4 / -5.4%
 * against +0.9 / +2.2 / -8.5%.
 */
const WARMUP_DELIVERIES = 5_000;

/**
 * Sends `messages` (POSTs of 500) and waits until `path` has received one delivery per message;
 * rate = deliveries ÷ (last delivery − first POST).
 */
async function phase(baseUrl: string, key: string, receiver: CountingReceiver, path: string, messages: number, timeoutMs: number, label: string) {
  const before = receiver.arrivals(path).length;
  const started = nowMs();
  for (let sent = 0; sent < messages; sent += RECIPIENTS_PER_POST) {
    await apiExpect(202, baseUrl, key, 'POST', '/v1/messages', sendBody(Math.min(RECIPIENTS_PER_POST, messages - sent), sent));
  }
  const postsMs = nowMs() - started;
  const deadline = Date.now() + timeoutMs;
  const got = () => receiver.arrivals(path).length - before;
  while (got() < messages && Date.now() < deadline) {
    status(`${label} ${bar(got() / messages)} ${got()}/${messages}`);
    await sleep(100);
  }
  status('');
  const arrivals = receiver.arrivals(path).slice(before);
  const last = arrivals.at(-1) ?? nowMs();
  // Deliveries per 250 ms from the first POST: shows the start-up delay and any stall.
  const perQuarterSecond: number[] = [];
  for (const at of arrivals) {
    const slot = Math.floor((at - started) / 250);
    while (perQuarterSecond.length <= slot) perQuarterSecond.push(0);
    perQuarterSecond[slot]! += 1;
  }
  return { expected: messages, delivered: arrivals.length, postsMs, perSecond: arrivals.length / ((last - started) / 1000), perQuarterSecond };
}

export const webhooks: Scenario = {
  name: 'webhooks',
  method:
    `One organization, one endpoint subscribed to ${EVENT} on a local HTTPS receiver (bench/webhooks/receiver.ts, uWebSockets.js with TLS, answers 200 ` +
    'once the body is in). After 5,000 deliveries not counted (connections opened, code warm), sends N messages and counts deliveries until all N arrived: rate = N ÷ (last arrival − first POST). Then adds a second ' +
    'endpoint on /hang that never answers and repeats; the first endpoint\'s rate is compared with the first phase. Ceiling: ' +
    'the same receiver hit directly from the bench over 16 keep-alive HTTPS connections.',
  async run({ target, settings }) {
    if (!target.receiverCert) {
      throw new NotAvailable('needs the local server (a remote deployment must reach and trust a receiver on this machine)');
    }
    const receiver = await startCountingReceiver(target.receiverCert);
    try {
      const [tenant] = await target.tenants(1);
      const key = tenant!.key;
      const base = `https://localhost:${receiver.port}`;
      await apiExpect(201, target.url, key, 'POST', '/v1/webhooks', { url: `${base}/ok`, eventTypes: [EVENT] });
      const messages = settings.quick ? 200 : 10_000;
      const timeoutMs = settings.quick ? 20_000 : 90_000;
      // Not counted: the worker's connections to the receiver opened (50 TLS handshakes) and its
      // delivery path compiled, so that both measured phases start warm and compare.
      const warmup = await phase(target.url, key, receiver, '/ok', settings.quick ? 0 : WARMUP_DELIVERIES, timeoutMs, 'webhooks warm-up');
      const alone = await phase(target.url, key, receiver, '/ok', messages, timeoutMs, 'webhooks alone');
      await apiExpect(201, target.url, key, 'POST', '/v1/webhooks', { url: `${base}/hang`, eventTypes: [EVENT] });
      const beside = await phase(target.url, key, receiver, '/ok', messages, timeoutMs, 'webhooks beside a hanging endpoint');
      const ceiling = await timed('webhooks receiver ceiling', 3, measureReceiverCeiling(receiver.port, target.receiverCert.cert, settings.quick ? 1 : 3));
      const loss = 1 - beside.perSecond / alone.perSecond;
      return {
        figures: [
          { key: 'webhooks.deliveriesPerSecond', label: 'deliveries per second, one endpoint', value: alone.perSecond, unit: 'deliv/s', goal: { op: '>=', value: 3_000 }, ceilingKey: 'webhooks.ceiling.receiverPerSecond' },
          { key: 'webhooks.besideHangingPerSecond', label: 'same, beside a hanging endpoint', value: beside.perSecond, unit: 'deliv/s', ceilingKey: 'webhooks.ceiling.receiverPerSecond' },
          { key: 'webhooks.hangingLossPercent', label: 'rate lost to the hanging endpoint', value: loss * 100, unit: '%', goal: { op: '<=', value: 10 } },
          { key: 'webhooks.ceiling.receiverPerSecond', label: 'receiver hit directly (ceiling)', value: ceiling, unit: 'req/s' },
        ],
        details: { warmup, alone, beside, hangingReceived: receiver.arrivals('/hang').length, repeatedDeliveries: receiver.repeats('/ok'), receiverConnections: receiver.openConnections() },
      };
    } finally {
      await receiver.close();
    }
  },
};
