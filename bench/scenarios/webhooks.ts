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
  const seconds = (last - started) / 1000;
  return { expected: messages, delivered: arrivals.length, postsMs, seconds, perSecond: arrivals.length / seconds, perQuarterSecond };
}

/**
 * Closes the requests held under /hang until none comes again: the worker still posts the
 * deliveries it had claimed before their endpoint was deleted.
 */
async function releaseUntilQuiet(receiver: CountingReceiver): Promise<void> {
  for (let round = 0; round < 20; round += 1) {
    const before = receiver.arrivals('/hang').length;
    receiver.releaseHanging();
    await sleep(200);
    if (receiver.arrivals('/hang').length === before) return;
  }
}

/**
 * Alone and beside a hanging endpoint, in turns, the same number of messages each: a machine
 * that speeds up or slows down during the scenario moves both figures alike, rather than only
 * the one measured last (measured alone then beside, the loss ranged from -28% to +30% over
 * seven full runs of the same code). One size for all: a phase's rate includes its ramp up,
 * which weighs more in a shorter one.
 */
const SCHEDULE = ['alone', 'beside', 'alone', 'beside', 'alone'] as const;

type MeasuredPhase = Awaited<ReturnType<typeof phase>> & { condition: (typeof SCHEDULE)[number]; hangingHeld?: number };

/** Deliveries per second over several phases: all their deliveries ÷ all their time. */
function combinedRate(phases: Array<{ delivered: number; seconds: number }>): number {
  const seconds = phases.reduce((sum, p) => sum + p.seconds, 0);
  return phases.reduce((sum, p) => sum + p.delivered, 0) / seconds;
}

export const webhooks: Scenario = {
  name: 'webhooks',
  method:
    `One organization, one endpoint subscribed to ${EVENT} on a local HTTPS receiver (bench/webhooks/receiver.ts, uWebSockets.js with TLS, answers 200 ` +
    'once the body is in). After 5,000 deliveries not counted (connections opened, code warm), five phases of N messages: alone, ' +
    'beside a second endpoint on /hang that never answers (deleted after the phase, its held requests closed), alone, beside, ' +
    "alone. Each phase counts deliveries to the first endpoint until all arrived; a rate is its phases' deliveries ÷ their time " +
    '(each from first POST to last arrival); the loss compares the beside rate with the alone rate. Ceiling: ' +
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
      const run = (count: number, label: string) => phase(target.url, key, receiver, '/ok', count, timeoutMs, label);
      // Not counted: the worker's connections to the receiver opened (50 TLS handshakes) and its
      // delivery path compiled, so that the measured phases start warm and compare.
      const warmup = await run(settings.quick ? 0 : WARMUP_DELIVERIES, 'webhooks warm-up');
      const phases: MeasuredPhase[] = [];
      for (const [i, condition] of SCHEDULE.entries()) {
        const label = `webhooks ${condition === 'alone' ? 'alone' : 'beside a hanging endpoint'} (phase ${i + 1} of ${SCHEDULE.length})`;
        if (condition === 'alone') {
          phases.push({ condition, ...(await run(messages, label)) });
          continue;
        }
        const { endpoint: hang } = await apiExpect<{ endpoint: { id: string } }>(201, target.url, key, 'POST', '/v1/webhooks', { url: `${base}/hang`, eventTypes: [EVENT] });
        const measured = await run(messages, label);
        phases.push({ condition, ...measured, hangingHeld: receiver.hanging() });
        await apiExpect(204, target.url, key, 'DELETE', `/v1/webhooks/${hang.id}`);
        // The worker would close them itself at its timeout (10 s by default); until then the
        // next alone phase would not be alone.
        await releaseUntilQuiet(receiver);
      }
      const alone = combinedRate(phases.filter((p) => p.condition === 'alone'));
      const beside = combinedRate(phases.filter((p) => p.condition === 'beside'));
      const ceiling = await timed('webhooks receiver ceiling', 3, measureReceiverCeiling(receiver.port, target.receiverCert.cert, settings.quick ? 1 : 3));
      const loss = 1 - beside / alone;
      return {
        figures: [
          {
            key: 'webhooks.deliveriesPerSecond',
            label: 'deliveries per second, one endpoint',
            value: alone,
            unit: 'deliv/s',
            goal: { op: '>=', value: 3_000 },
            ceilingKey: 'webhooks.ceiling.receiverPerSecond',
          },
          { key: 'webhooks.besideHangingPerSecond', label: 'same, beside a hanging endpoint', value: beside, unit: 'deliv/s', ceilingKey: 'webhooks.ceiling.receiverPerSecond' },
          { key: 'webhooks.hangingLossPercent', label: 'rate lost to the hanging endpoint', value: loss * 100, unit: '%', goal: { op: '<=', value: 10 } },
          { key: 'webhooks.ceiling.receiverPerSecond', label: 'receiver hit directly (ceiling)', value: ceiling, unit: 'req/s' },
        ],
        details: {
          warmup,
          phases,
          hangingReceived: receiver.arrivals('/hang').length,
          hangingAfter: receiver.hanging(),
          repeatedDeliveries: receiver.repeats('/ok'),
          receiverConnections: receiver.openConnections(),
        },
      };
    } finally {
      await receiver.close();
    }
  },
};
