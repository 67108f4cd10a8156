import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { pairTestPhone, sendMessages, eventually, type TestPhone } from '../support/phones.js';
import type { Job } from '../../src/phone/protocol.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/**
 * Real phones on real sockets: one that fails every send (it lost service) and one that works.
 * Each job is handed to one phone only; the report path makes the resends and the claim script
 * gives them to the working phone.
 */
it('resends what a phone without service failed from the other phone, once each, and not what would fail anywhere', async () => {
  const { org, key } = await app.createOrg({ autoResend: { attempts: 2 } });
  const handedTo = new Map<string, string>();
  const reports: Promise<unknown>[] = [];
  const phone = async (name: string, outcome: (job: Job) => { status: 'sent' } | { status: 'failed'; failureCode: string }): Promise<TestPhone> => {
    let self: TestPhone | undefined;
    const p = await pairTestPhone(app, org.id, {
      name,
      client: {
        onJobs: (jobs: Job[]) => {
          for (const job of jobs) {
            expect(handedTo.has(job.messageId), `${job.messageId} reached two phones`).toBe(false);
            handedTo.set(job.messageId, name);
            reports.push(
              (async () => {
                await self!.client.reportStatus({ messageId: job.messageId, status: 'sending' });
                await self!.client.reportStatus({ messageId: job.messageId, ...outcome(job) });
              })(),
            );
          }
        },
      },
    });
    self = p;
    return p;
  };

  const silent = await phone('no service', (job) => ({ status: 'failed', failureCode: job.to.endsWith('2') ? 'invalid_sms_format' : 'no_service' }));
  await silent.client.connect();
  // +261343000000 … +261343000002: the last fails with a code no resend can help.
  const ids = await sendMessages(app, key, 3);
  const status = async (id: string) => (await app.ctx.db.query('SELECT status FROM messages WHERE id = $1', [id])).rows[0].status as string;
  await eventually(async () => (await Promise.all(ids.map(status))).every((s) => s === 'failed'), 10_000, 'the three failed on the phone without service');

  const working = await phone('working', () => ({ status: 'sent' }));
  await working.client.connect();
  const resendOf = async (id: string) => (await app.ctx.db.query('SELECT id, status FROM messages WHERE resend_of_id = $1', [id])).rows as { id: string; status: string }[];
  for (const id of ids.slice(0, 2)) {
    const [resent] = await eventually(
      async () => {
        const r = await resendOf(id);
        return r.length === 1 && r[0]!.status === 'sent' && r;
      },
      10_000,
      `the resend of ${id} sent`,
    );
    expect(handedTo.get(resent!.id)).toBe('working');
    expect(await status(id)).toBe('failed');
  }
  expect(await resendOf(ids[2]!)).toEqual([]);
  await Promise.all(reports);
  const { rows } = await app.ctx.db.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1', [org.id]);
  expect(rows[0].n).toBe(5);
  await silent.client.close();
  await working.client.close();
});
