import { expect, it } from 'vitest';
import { eventually, pairTestPhone, sendMessages } from '../support/phones.js';
import { rawSocketSuite, type Frame } from '../support/raw-socket.js';
import { breakPostgres } from '../support/pg-outage.js';

/**
 * The protocol tells a phone to resend an unanswered frame with the same ref, and promises the
 * server deduplicates: a resent frame gets the first answer again and changes nothing more.
 */
const suite = rawSocketSuite();

async function phoneSocket(query = '') {
  const { org, key } = await suite.app.createOrg({ dailyLimit: 10_000 });
  const phone = await pairTestPhone(suite.app, org.id, { pacingPerMinute: 100_000 });
  const socket = await suite.open(phone.token, query);
  return { ...phone, key, socket };
}

const countByStatus = async (deviceOrIds: string[]) => {
  const { rows } = await suite.app.ctx.db.query(`SELECT status, count(*)::int AS n FROM messages WHERE id = ANY($1) GROUP BY status ORDER BY status`, [deviceOrIds]);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
};

it('answers a resent claim with the jobs of its first answer, claiming nothing more, even while the first is running', async () => {
  // One pushed job at most, so the claims below are what hands out the rest.
  const { key, socket } = await phoneSocket('?maxJobs=1');
  const ids = await sendMessages(suite.app, key, 7);
  await eventually(() => socket.pushedJobs().length === 1, 5000, 'the one pushed job');

  const first = await socket.request({ type: 'claim', ref: 'c1', max: 2 });
  expect(first.jobs).toHaveLength(2);
  expect(await socket.request({ type: 'claim', ref: 'c1', max: 2 })).toEqual(first);

  // Resent before the first answer came back: both answers are the one claim's.
  socket.send({ type: 'claim', ref: 'c2', max: 2 });
  socket.send({ type: 'claim', ref: 'c2', max: 2 });
  const [a, b] = await socket.answered('c2', 2);
  expect(a!.jobs).toHaveLength(2);
  expect(b).toEqual(a);

  expect(await countByStatus(ids)).toEqual({ claimed: 5, queued: 2 });
});

it('answers a resent status report, heartbeat and received SMS as the first time, writing each once', async () => {
  const { key, socket } = await phoneSocket();
  const [id] = await sendMessages(suite.app, key, 1);
  await eventually(() => socket.pushedJobs().length === 1, 5000, 'the pushed job');

  const report = { type: 'status', ref: 's1', messageId: id, status: 'sending' };
  const reported = await socket.request(report);
  expect(reported).toEqual({ type: 'ack', ref: 's1', messageId: id, status: 'sending' });
  // Run again, the report would answer duplicate: true; the remembered answer is the first one.
  expect(await socket.request(report)).toEqual(reported);

  const beat = { type: 'heartbeat', ref: 'h1', defaultSmsApp: true, battery: { percent: 50, charging: false } };
  const beaten = await socket.request(beat);
  expect(await socket.request(beat)).toEqual(beaten); // serverTime included: not run again

  const sms = { type: 'incoming', ref: 'i1', clientId: 'sms-1', from: '+261340000001', body: 'Salama', receivedAt: new Date().toISOString() };
  const stored = await socket.request(sms);
  expect(stored).toMatchObject({ type: 'ack', ref: 'i1', clientId: 'sms-1', incomingId: expect.stringMatching(/^inc_/) });
  expect(await socket.request(sms)).toEqual(stored);

  const { rows: events } = await suite.app.ctx.db.query(`SELECT count(*)::int AS n FROM message_events WHERE message_id = $1 AND to_status = 'sending'`, [id]);
  expect(events[0].n).toBe(1);
});

it('runs a resent frame again when its answer could change: internal_error and inbound_locked are not remembered', async () => {
  const { key, socket } = await phoneSocket();
  const [id] = await sendMessages(suite.app, key, 1);
  await eventually(() => socket.pushedJobs().length === 1, 5000, 'the pushed job');

  const report = { type: 'status', ref: 's1', messageId: id, status: 'sending' };
  const outage = breakPostgres(suite.app.ctx);
  let refused: Frame | undefined;
  try {
    refused = await socket.request(report);
  } finally {
    outage.end();
  }
  expect(refused).toMatchObject({ type: 'error', ref: 's1', code: 'internal_error' });
  expect(await socket.request(report)).toEqual({ type: 'ack', ref: 's1', messageId: id, status: 'sending' });

  const sms = { type: 'incoming', ref: 'i1', clientId: 'sms-1', from: '+261340000001', body: 'Salama', receivedAt: new Date().toISOString() };
  expect(await socket.request(sms)).toMatchObject({ type: 'error', code: 'inbound_locked' });
  await socket.request({ type: 'heartbeat', ref: 'h1', defaultSmsApp: true });
  expect(await socket.request(sms)).toMatchObject({ type: 'ack', ref: 'i1', incomingId: expect.stringMatching(/^inc_/) });
});
