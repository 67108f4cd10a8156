/**
 * What must hold after every fault (issue 17), checked from the sources of truth: Postgres
 * directly (rows, statuses, claims, batches), Redis (the daily counter), the phones (which
 * phone got which job) and the webhook receiver (which event ids arrived, how often).
 */
import { CLAIM_RECOVERY_MS } from '../../src/dispatch/sweeps.js';
import { utcDay } from '../../src/redis/keys.js';
import { intendedOutcome } from './fleet.js';
import { WEBHOOK_TYPES, within, type Scenario } from './scenario.js';
import type { Topology } from './topology.js';

export interface Verdict {
  name: string;
  ok: boolean;
  detail: string;
}

/**
 * How long the deployment has, once the fault is over, to bring every message and event to its
 * end: a claim cut between Redis and Postgres by the fault waits CLAIM_RECOVERY_MS for the
 * interrupted-claims sweep to queue its messages again, then a sweep interval and a push.
 */
export const SETTLE_DEADLINE_MS = CLAIM_RECOVERY_MS + 15_000;
/** The issue's "within seconds": a retried key answered, the counter equal to the rows. */
export const RECOVERY_DEADLINE_MS = 15_000;

const sample = (ids: Iterable<string>, n = 3) => [...ids].slice(0, n).join(', ');

type Say = (name: string, ok: boolean, detail?: string) => void;

/**
 * counterDeadlineMs: how long the daily counter may take to equal the rows. After a Redis wipe, a
 * send in flight at the wipe is counted again only by the worker's recount of the seeded counter.
 */
export async function checkScenario(topo: Topology, s: Scenario, counterDeadlineMs = RECOVERY_DEADLINE_MS): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  const say: Say = (name, ok, detail = '') => verdicts.push({ name, ok, detail });
  const stored = await checkRequests(topo, s, say);
  await checkOutcomes(topo, s, say);
  await checkCounter(topo, s, stored, say, counterDeadlineMs);
  await checkWebhooks(topo, s, say);
  return verdicts;
}

/** Idempotent retries answered with the committed batch; every 202'd message durable, once. Returns the org's message count. */
async function checkRequests(topo: Topology, s: Scenario, verdict: Say): Promise<number> {
  const db = topo.ctx.db;
  // Idempotent retries: every request ends with a 202, the batch its key committed.
  await s.sender.retryUnanswered(RECOVERY_DEADLINE_MS);
  const unanswered = s.sender.unanswered();
  verdict(
    'every request retried with its Idempotency-Key is answered 202 within seconds',
    unanswered.length === 0,
    `${unanswered.length} of ${s.sender.requests.length} still unanswered; last answers: ${unanswered
      .slice(0, 3)
      .map((r) => JSON.stringify(r.answers.at(-1)))
      .join(' ')}`,
  );
  const { rows: batches } = await db.query<{ id: string; key: string; n: number }>('SELECT id, idempotency_key AS key, message_count AS n FROM batches WHERE org_id = $1', [s.orgId]);
  const batchOfKey = new Map(batches.map((b) => [b.key, b.id]));
  const wrongBatch = s.sender.requests.filter((r) => r.answers.some((a) => a.kind === 'accepted' && a.batchId !== batchOfKey.get(r.key)));
  verdict('every 202 for a key names the one batch Postgres holds for it', wrongBatch.length === 0, `${wrongBatch.length} keys answered with another batch`);
  verdict(
    'one batch per request, none for a request never answered',
    batches.length <= s.sender.requests.length && batches.every((b) => s.sender.requests.some((r) => r.key === b.key)),
    `${batches.length} batches for ${s.sender.requests.length} requests`,
  );

  // Durable exactly once: Postgres holds every 202'd message, each request's messages once, and
  // nothing for a key the client never sent. (A request the client gave up on may still have
  // committed: its retry must then find it.)
  const accepted = s.sender.accepted();
  const { rows: messages } = await db.query<{ id: string; batch: string }>('SELECT id, batch_id AS batch FROM messages WHERE org_id = $1', [s.orgId]);
  const stored = new Set(messages.map((m) => m.id));
  const lost = [...accepted.keys()].filter((id) => !stored.has(id));
  verdict("every 202'd message is in Postgres", lost.length === 0, `${lost.length} lost (${sample(lost)})`);
  const perBatch = new Map<string, number>();
  for (const m of messages) perBatch.set(m.batch, (perBatch.get(m.batch) ?? 0) + 1);
  const sizeOfKey = new Map(s.sender.requests.map((r) => [r.key, r.to.length]));
  const misSized = batches.filter((b) => perBatch.get(b.id) !== sizeOfKey.get(b.key));
  verdict(
    "each request's messages stored once (one per recipient)",
    misSized.length === 0,
    `${misSized.length} batches: ${JSON.stringify(misSized.slice(0, 3).map((b) => ({ key: b.key, rows: perBatch.get(b.id), recipients: sizeOfKey.get(b.key) })))}`,
  );
  const orphans = messages.filter((m) => !batches.some((b) => b.id === m.batch));
  verdict('no message outside the batches of the requests sent', orphans.length === 0, `${orphans.length}`);
  s.figures.messages = accepted.size;
  s.figures.requests = s.sender.requests.length;
  return stored.size;
}

/** Every message terminal with the status its phone reported, claimed once, by one phone. */
async function checkOutcomes(topo: Topology, s: Scenario, verdict: Say): Promise<void> {
  const db = topo.ctx.db;
  // Every message terminal, with the status its phone reported.
  const wrong = await within(
    SETTLE_DEADLINE_MS,
    async () => {
      const { rows } = await db.query<{ id: string; status: string }>('SELECT id, status FROM messages WHERE org_id = $1', [s.orgId]);
      const off = rows.filter((m) => m.status !== intendedOutcome(m.id));
      return off.length === 0 ? [] : false;
    },
    500,
  );
  if (!wrong) {
    const { rows } = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM messages WHERE org_id = $1 GROUP BY status', [s.orgId]);
    const { rows: mismatch } = await db.query<{ id: string; status: string }>('SELECT id, status FROM messages WHERE org_id = $1', [s.orgId]);
    const off = mismatch.filter((m) => m.status !== intendedOutcome(m.id));
    verdict(
      'every message terminal with the status its phone reported',
      false,
      `${off.length} not: statuses ${JSON.stringify(rows)}; e.g. ${off
        .slice(0, 3)
        .map((m) => `${m.id}=${m.status} (phone: ${intendedOutcome(m.id)})`)
        .join(', ')}; reports the phones gave up on: ${JSON.stringify(Object.fromEntries(s.fleet.refusedReports))}`,
    );
  } else verdict('every message terminal with the status its phone reported', true);

  // Sent once: one claim per message in Postgres, one phone per job on the phones' side.
  const { rows: twice } = await db.query<{ id: string; claims: number; devices: number }>(
    `SELECT e.message_id AS id, count(*)::int AS claims, count(DISTINCT e.device_id)::int AS devices
     FROM message_events e JOIN messages m ON m.id = e.message_id
     WHERE m.org_id = $1 AND e.to_status = 'claimed' GROUP BY e.message_id HAVING count(*) > 1`,
    [s.orgId],
  );
  verdict('no message claimed twice (Postgres timeline)', twice.length === 0, `${twice.length}: ${JSON.stringify(twice.slice(0, 3))}`);
  const onTwoPhones = s.fleet.jobsOnTwoPhones();
  verdict('no job handed to two phones', onTwoPhones.length === 0, `${onTwoPhones.length} (${sample(onTwoPhones)})`);
  s.figures.duplicatePushesToSamePhone = s.fleet.duplicatePushes();
}

async function checkCounter(topo: Topology, s: Scenario, rows: number, verdict: Say, deadlineMs: number): Promise<void> {
  // The daily counter equals the rows (a lost request refunded, a replay not counted).
  const dailyKey = topo.ctx.keys.org(s.orgId).dailyCount(utcDay());
  let counter: string | null = null;
  const equal = await within(
    deadlineMs,
    async () => {
      counter = await topo.ctx.redis.get(dailyKey);
      // Absent (Redis lost it): the next send recounts it from these rows.
      return counter === null || Number(counter) === rows;
    },
    250,
  );
  verdict('the daily counter equals the rows', equal === true, `counter ${counter}, rows ${rows}`);
}

async function checkWebhooks(topo: Topology, s: Scenario, verdict: Say): Promise<void> {
  const db = topo.ctx.db;
  // Webhooks: every event at least once; duplicates measured.
  const { rows: events } = await db.query<{ id: string; type: string; message: string }>(
    `SELECT id, type, payload->'data'->>'id' AS message FROM events WHERE org_id = $1 AND type = ANY($2::text[])`,
    [s.orgId, WEBHOOK_TYPES],
  );
  const perMessageType = new Map<string, number>();
  for (const e of events) perMessageType.set(`${e.message}/${e.type}`, (perMessageType.get(`${e.message}/${e.type}`) ?? 0) + 1);
  const doubled = [...perMessageType].filter(([, n]) => n > 1).map(([k]) => k);
  verdict('one event per status change (none doubled by a replayed change)', doubled.length === 0, `${doubled.length} (${sample(doubled)})`);
  const eventIds = new Set(events.map((e) => e.id));
  const receivedTimes = (): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const r of topo.receiver.requests) {
      const id = String(r.headers['hafatra-event-id'] ?? '');
      if (eventIds.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  const allDelivered = await within(SETTLE_DEADLINE_MS, () => receivedTimes().size === eventIds.size, 500);
  const counts = receivedTimes();
  verdict('every webhook event delivered at least once', allDelivered === true, `${eventIds.size - counts.size} of ${eventIds.size} never arrived`);
  s.figures.webhookEvents = eventIds.size;
  s.figures.webhookDuplicates = [...counts.values()].reduce((n, c) => n + c - 1, 0);
}
