import { describe, expect, it } from 'vitest';
import { withdrawStuckClaims } from '../../src/dispatch/withdraw-jobs.js';
import { messageOf, send, startedPhone, statusOf, useMobileApp } from './support.js';
import type { AndroidApp } from '../support/android-app.js';

// Jobs unreported for a second are taken back (asked back, for a mobile phone) by the sweep.
const env = useMobileApp({ claimTimeoutSeconds: 1, silentPhoneSeconds: 0 });

/** Each test its own organization: a job one test leaves queued would go to the next test's phones. */
const ownOrg = async () => {
  const { org, key } = await env.app.createOrg();
  return { orgId: org.id, key };
};
const sweep = () => withdrawStuckClaims(env.app.ctx as Parameters<typeof withdrawStuckClaims>[0]);
/** Runs the sweep, then answers whether the job is asked back. */
const sweptAndAsked = async (id: string) => {
  await sweep();
  return (await env.app.ctx.db.query('SELECT 1 FROM mobile_cancellations WHERE message_id = $1', [id])).rowCount;
};
const cancelledEvents = (phone: AndroidApp) => phone.events.filter((e) => e.event === 'MessageCancelled').map((e) => JSON.parse(e.data).messageId as string);

/** Sends one message and waits until this phone holds it (only this phone of its organization is connected). */
async function heldBy(phone: AndroidApp, key: string): Promise<string> {
  const id = await send(env.app, key);
  await expect.poll(() => phone.local.has(id)).toBe(true);
  return id;
}

describe('a job handed to an app phone moves only once the phone confirms Cancelled', () => {
  it("1.68.0: Android's limit (limit_exceeded) cools the phone down and asks back the jobs it still holds", async () => {
    const { orgId, key } = await ownOrg();
    const phone = await startedPhone(env.app, orgId);
    const [a, b] = [await heldBy(phone, key), await heldBy(phone, key)];
    await phone.move(phone.local.get(a)!, 'Failed', 'Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue limit)');
    await expect.poll(() => cancelledEvents(phone)).toEqual([b]);
    await phone.idle();
    expect(await statusOf(env.app, key, b)).toBe('queued');
    // Cooling down: a new send is not handed to it.
    const c = await send(env.app, key);
    await phone.pull();
    expect(phone.local.has(c)).toBe(false);
    phone.disconnect();
  });

  it('1.68.0: the stuck job is asked back (MessageCancelled, listed Cancelling), the phone cancels it, another phone sends it', async () => {
    const { orgId, key } = await ownOrg();
    const first = await startedPhone(env.app, orgId);
    const id = await heldBy(first, key);
    // The phone answers MessageCancelled itself: its job was still Pending.
    await expect
      .poll(async () => {
        await sweep();
        return cancelledEvents(first);
      })
      .toEqual([id]);
    await first.idle();
    expect(first.local.get(id)!.state).toBe('Cancelled');
    expect(first.reports.at(-1)!.body).toMatchObject([{ id, state: 'Cancelled' }]);
    // Back on the queue, for the other phone (the first may not take it again for a minute).
    const second = await startedPhone(env.app, orgId, { autopilot: true });
    await expect.poll(() => statusOf(env.app, key, id)).toBe('delivered');
    const message = await messageOf(env.app, key, id);
    expect(message.deviceId).toBe(second.id);
    const back = message.events.find((e: { toStatus: string; fromStatus: string }) => e.toStatus === 'queued' && e.fromStatus === 'claimed');
    expect(back).toMatchObject({ code: 'claim_timeout', deviceId: first.id });
    first.disconnect();
    second.disconnect();
  });

  it('1.68.0: a phone that never confirms keeps its job, listed Cancelling, and no other phone gets it; its report ends it', async () => {
    const { orgId, key } = await ownOrg();
    const phone = await startedPhone(env.app, orgId);
    const id = await heldBy(phone, key);
    phone.disconnect(); // hears no MessageCancelled
    const [other] = [await startedPhone(env.app, orgId)];
    await expect.poll(() => sweptAndAsked(id)).toBe(1);
    await sweep();
    expect(await statusOf(env.app, key, id)).toBe('claimed');
    expect(other.local.has(id)).toBe(false);
    // The job went out before the request reached the phone: it reports Sent, which stands.
    const res = await phone.call('GET', '/message');
    expect(res.body).toEqual([expect.objectContaining({ id, state: 'Cancelling' })]);
    const m = phone.local.get(id)!;
    await phone.move(m, 'Processed');
    await phone.move(m, 'Sent');
    expect(await statusOf(env.app, key, id)).toBe('sent');
    // No longer listed: the request went with the claim.
    expect((await phone.call('GET', '/message')).body).toEqual([]);
    other.disconnect();
  });

  it('1.68.0: a Cancelling job the phone does not know (its data was cleared) is confirmed cancelled at once', async () => {
    const { orgId, key } = await ownOrg();
    const phone = await startedPhone(env.app, orgId);
    const id = await heldBy(phone, key);
    phone.disconnect();
    await expect.poll(() => sweptAndAsked(id)).toBe(1);
    phone.local.clear();
    await phone.pull();
    expect(phone.reports.at(-1)!.body).toMatchObject([{ id, state: 'Cancelled' }]);
    expect(await statusOf(env.app, key, id)).toBe('queued');
  });

  it("before 1.67.0: the job is never asked back nor listed Cancelling; it stays the phone's until its report", async () => {
    const { orgId, key } = await ownOrg();
    const phone = await startedPhone(env.app, orgId, { version: '1.66.1' });
    const id = await heldBy(phone, key);
    const pastTimeout = async () => (await env.app.ctx.db.query(`SELECT claimed_at < now() - interval '1.1 seconds' AS past FROM messages WHERE id = $1`, [id])).rows[0].past;
    await expect.poll(pastTimeout).toBe(true);
    await sweep();
    await sweep();
    expect(cancelledEvents(phone)).toEqual([]);
    expect((await env.app.ctx.db.query('SELECT 1 FROM mobile_cancellations WHERE message_id = $1', [id])).rowCount).toBe(0);
    const items = (await phone.call('GET', '/message')).body;
    expect(items.map((i: { id: string }) => i.id)).toContain(id);
    for (const item of items) expect(item).not.toHaveProperty('state');
    expect(await statusOf(env.app, key, id)).toBe('claimed');
    await phone.sendThrough(phone.local.get(id)!);
    expect(await statusOf(env.app, key, id)).toBe('delivered');
    phone.disconnect();
  });
});
