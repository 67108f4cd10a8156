import type { Request } from 'autocannon';
import { runLoad, type LoadResult } from '../lib/load.js';
import { RECIPIENTS_PER_POST, sendBody } from '../lib/recipients.js';
import { best, toPoints } from '../lib/sweep.js';
import { steadyLoad } from '../lib/steady.js';
import { MAX_DAILY_LIMIT } from '../target/local-fixtures.js';
import type { Tenant } from '../target/target.js';
import { ceilingKeys } from './ceilings.js';
import type { Scenario } from './scenario.js';

/** Requests one organization may take before its daily limit (minus one for safety). */
const POSTS_PER_ORG = Math.floor(MAX_DAILY_LIMIT / RECIPIENTS_PER_POST) - 1;
/** Highest rate the organization count is provisioned for (about twice the target). */
const PROVISIONED_MESSAGES_PER_SECOND = 60_000;

/**
 * Hands each request the key of the current organization, moving to the next one after
 * POSTS_PER_ORG requests, so no organization goes past its daily limit. Past the last one it
 * wraps around (those requests get 429 and show up as non-2xx).
 */
export function keyRotation(tenants: Tenant[]) {
  let sent = 0;
  return {
    setupRequest(req: Request): Request {
      const tenant = tenants[Math.floor(sent / POSTS_PER_ORG) % tenants.length]!;
      sent += 1;
      req.headers = { ...req.headers, authorization: `Bearer ${tenant.key}` };
      return req;
    },
    sent: () => sent,
    capacity: tenants.length * POSTS_PER_ORG,
  };
}

const TARGET_MESSAGES_PER_SECOND = 25_000;

export const bulkSend: Scenario = {
  name: 'bulk-send',
  method:
    'autocannon POSTs /v1/messages with 500 distinct recipients each, for each concurrency of the sweep. Keys rotate across ' +
    `organizations (each at the 100,000/day cap, ${POSTS_PER_ORG} requests per organization) with one paired phone each so every ` +
    'send is eligible. Reports messages accepted (202) per second and the POST latency p50/p99 at the best point.',
  async run({ target, settings }) {
    // The sweep, then one run at the target rate after a 2 s warm-up.
    const seconds = settings.seconds * (settings.sweep.length + 1) + 2;
    const wanted = Math.ceil((seconds * PROVISIONED_MESSAGES_PER_SECOND) / (POSTS_PER_ORG * RECIPIENTS_PER_POST)) + 1;
    const tenants = await target.tenants(wanted);
    const rotation = keyRotation(tenants);
    const runs: LoadResult[] = [];
    for (const connections of settings.sweep) {
      runs.push(
        await runLoad({
          label: 'bulk-send',
          url: `${target.url}/v1/messages`,
          method: 'POST',
          connections,
          seconds: settings.seconds,
          body: sendBody(),
          headers: { 'content-type': 'application/json' },
          setupRequest: rotation.setupRequest,
        }),
      );
    }
    const top = best(runs);
    const messagesPerSecond = top.okPerSecond * RECIPIENTS_PER_POST;
    // The target is a p99 "at that load": 25,000 messages/s held steady, open loop (a POST every
    // 20 ms whatever the answers). The best run's p99 is given beside it.
    const atTarget = await steadyLoad({
      label: 'bulk-send at 25,000 msg/s',
      url: `${target.url}/v1/messages`,
      method: 'POST',
      rate: TARGET_MESSAGES_PER_SECOND / RECIPIENTS_PER_POST,
      seconds: settings.seconds,
      warmupSeconds: settings.quick ? 0 : 2,
      body: sendBody(),
      headers: () => rotation.setupRequest({ headers: { 'content-type': 'application/json' } } as Request).headers as Record<string, string>,
    });
    const rateAt = (r: LoadResult) => Math.round(r.okPerSecond * RECIPIENTS_PER_POST).toLocaleString('en-US');
    return {
      figures: [
        {
          key: 'bulk-send.messagesPerSecond',
          label: `messages accepted/s (best of sweep, c=${top.connections})`,
          value: messagesPerSecond,
          unit: 'msg/s',
          goal: { op: '>=', value: TARGET_MESSAGES_PER_SECOND },
          ceilingKey: ceilingKeys.postMessages,
        },
        { key: 'bulk-send.p99', label: `POST p99 at a steady 25,000 msg/s (got ${rateAt(atTarget)})`, value: atTarget.p99, unit: 'ms', goal: { op: '<=', value: 150 } },
        { key: 'bulk-send.p50', label: 'POST p50 at a steady 25,000 msg/s', value: atTarget.p50, unit: 'ms' },
        { key: 'bulk-send.best.p99', label: `POST p99 at the best of sweep (c=${top.connections})`, value: top.p99, unit: 'ms', ceilingKey: ceilingKeys.postP99(top.connections) },
        { key: 'bulk-send.vsPostgres', label: 'messages accepted/s vs Postgres insert ceiling', value: messagesPerSecond, unit: 'msg/s', ceilingKey: ceilingKeys.postgres },
        { key: 'bulk-send.vsRedis', label: 'messages accepted/s vs Redis enqueue ceiling', value: messagesPerSecond, unit: 'msg/s', ceilingKey: ceilingKeys.redis },
      ],
      sweep: toPoints('POST /v1/messages (500 recipients), msg/s', 'bulk-send', runs, RECIPIENTS_PER_POST),
      details: { runs, atTarget, organizations: tenants.length, requestsSent: rotation.sent(), requestCapacity: rotation.capacity },
    };
  },
};
