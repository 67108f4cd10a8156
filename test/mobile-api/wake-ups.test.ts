import { describe, expect, it } from 'vitest';
import { sendMessages } from '../support/phones.js';
import type { AndroidApp } from '../support/android-app.js';
import { startedPhone, useMobileApp } from './support.js';

const env = useMobileApp();

const ownOrg = async () => {
  const { org, key } = await env.app.createOrg({ dailyLimit: 100_000 });
  return { orgId: org.id, key };
};
const wakeUps = (phone: AndroidApp) => phone.events.filter((e) => e.event === 'MessageEnqueued').length;
const delivered = async (ids: string[]) => (await env.app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE id = ANY($1) AND status = 'delivered'`, [ids])).rows[0].n as number;

describe('MessageEnqueued', () => {
  it("wakes as many of the organization's phones as the work needs, in turn, not all of them for each send", async () => {
    const { orgId, key } = await ownOrg();
    const phones: AndroidApp[] = [];
    for (let i = 0; i < 4; i++) phones.push(await startedPhone(env.app, orgId, { autopilot: true }));
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(...(await sendMessages(env.app, key, 1)));
      await expect.poll(() => delivered(ids)).toBe(ids.length);
    }
    // One phone woken per one-message send (more only if it were too slow to pull: then the others
    // are woken for what it left), a different one each time; never every phone for every send.
    expect(phones.map(wakeUps).reduce((a, b) => a + b, 0)).toBeLessThan(16);
    expect(phones.filter((p) => wakeUps(p) > 0).length).toBeGreaterThan(1);
    for (const p of phones) p.disconnect();
  });

  it('wakes the others when the phones woken first leave the work queued', async () => {
    const { orgId, key } = await ownOrg();
    const phones: AndroidApp[] = [];
    for (let i = 0; i < 3; i++) phones.push(await startedPhone(env.app, orgId, { autopilot: true }));
    // Only the last one sends: the others pull and get nothing.
    for (const p of phones.slice(0, 2)) expect((await env.app.request('PATCH', `/v1/devices/${p.id}`, { key, body: { outboundEnabled: false } })).status).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(...(await sendMessages(env.app, key, 1)));
    await expect.poll(() => delivered(ids)).toBe(3);
    expect(new Set(ids.map((id) => phones.findIndex((p) => p.local.has(id))))).toEqual(new Set([2]));
    for (const p of phones) p.disconnect();
  });

  it('is sent once per pull: sends queued before the phone pulled wake it once, the next send after its pull at once', async () => {
    const { orgId, key } = await ownOrg();
    const phone = await startedPhone(env.app, orgId, { deaf: true });
    const before = wakeUps(phone);
    await sendMessages(env.app, key, 1);
    await expect.poll(() => wakeUps(phone)).toBe(before + 1);
    for (let i = 0; i < 5; i++) await sendMessages(env.app, key, 1);
    expect(wakeUps(phone)).toBe(before + 1);
    await phone.pull();
    // The sends held back while it had not pulled: one more wake-up.
    await expect.poll(() => wakeUps(phone)).toBe(before + 2);
    expect(phone.local.size).toBe(6);
    phone.disconnect();
  });
});
