import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { signedInMember } from '../support/members.js';
import { recordHeartbeat } from '../../src/devices/heartbeat.js';
import type { ReportedSim } from '../../src/devices/schemas.js';
import { DEFAULT_CARRIERS, encodePrefixes } from '../../src/orgs/carriers.js';

// The claim script's clock: an off-net message's wait is measured on it, moved here by hand.
const clock = { t: Date.now(), now: () => clock.t };
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ offNetWaitSeconds: 20 }, undefined, clock);
});
afterAll(() => app.close());

/** A phone of the organization whose heartbeat reported these SIMs (with the carrier name Android gives). */
async function phone(orgId: string, sims: ReportedSim[]): Promise<string> {
  const deviceId = await insertTestDevice(app.ctx, orgId);
  await recordHeartbeat(app.ctx, { kind: 'device', orgId, deviceId }, { sims });
  return deviceId;
}

async function send(key: string, to: string[], extra: Record<string, unknown> = {}): Promise<string[]> {
  const res = await app.request('POST', '/v1/messages', { key, body: { to, body: 'Salama', ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return (res.body.messages as { id: string }[]).map((m) => m.id);
}

/** What the message's timeline says of its claim: the phone, the SIM and why. */
async function claimOf(key: string, id: string): Promise<string> {
  const { body } = await app.request('GET', `/v1/messages/${id}`, { key });
  const claimed = (body.events as { toStatus: string; code: string | null; deviceId: string }[]).find((e) => e.toStatus === 'claimed');
  return `${claimed?.deviceId} sim ${body.simSubscriptionId} ${claimed?.code}`;
}

const claim = async (orgId: string, deviceId: string) => app.ctx.dispatch.claim({ orgId, deviceId }, 20);
const ids = (r: { jobs: { messageId: string }[] }) => r.jobs.map((j) => j.messageId).sort();

describe('carrier routing', () => {
  it('with three phones on three carriers, each message is claimed by the phone on its network, with its SIM on it', async () => {
    const { org, key } = await app.createOrg();
    const orange = await phone(org.id, [{ subscriptionId: 1, carrierName: 'Orange MG' }]);
    const airtel = await phone(org.id, [{ subscriptionId: 3, carrierName: 'Airtel' }]);
    // Telma's consumer brand is now Yas: newer SIMs report that name.
    const telma = await phone(org.id, [{ subscriptionId: 5, carrierName: 'YAS MG' }]);
    const toOrange = await send(key, ['+261320000001', '+261370000002']);
    const toAirtel = await send(key, ['+261330000003', '0330000004']);
    const toTelma = await send(key, ['+261340000005', '+261380000006']);

    // The Airtel phone asks first, yet takes only its own network's messages: the others wait for their phones.
    const airtelJobs = await claim(org.id, airtel);
    expect(ids(airtelJobs)).toEqual([...toAirtel].sort());
    expect(airtelJobs.retryAfterMs).toBe(20_000);
    expect(ids(await claim(org.id, telma))).toEqual([...toTelma].sort());
    expect(ids(await claim(org.id, orange))).toEqual([...toOrange].sort());

    for (const id of toOrange) expect(await claimOf(key, id)).toBe(`${orange} sim 1 sim_on_net`);
    for (const id of toAirtel) expect(await claimOf(key, id)).toBe(`${airtel} sim 3 sim_on_net`);
    for (const id of toTelma) expect(await claimOf(key, id)).toBe(`${telma} sim 5 sim_on_net`);
  });

  it('a dual-SIM phone sends from the SIM on the recipient network, the named SIM when the send named one, else its default', async () => {
    const { org, key } = await app.createOrg();
    const dual = await phone(org.id, [
      { subscriptionId: 1, carrierName: 'Orange MG' },
      { subscriptionId: 2, carrierName: 'Telma' },
    ]);
    await app.ctx.db.query('UPDATE devices SET default_sim_subscription_id = 1 WHERE id = $1', [dual]);
    await app.ctx.redis.del(app.ctx.keys.org(org.id).deviceState(dual)); // the next claim loads the new default
    const [toTelma, toOrange, toAirtel, toFrance] = await send(key, ['+261340000001', '+261320000002', '+261330000003', '+33612345678']);
    const [named] = await send(key, ['+261340000004'], { deviceId: dual, simSubscriptionId: 1 });

    expect((await claim(org.id, dual)).jobs.map((j) => [j.messageId, j.simSubscriptionId])).toEqual(
      expect.arrayContaining([
        [toTelma, 2],
        [toOrange, 1],
        [toAirtel, 1],
        [toFrance, 1],
        [named, 1],
      ]),
    );
    expect(await claimOf(key, toTelma!)).toBe(`${dual} sim 2 sim_on_net`);
    expect(await claimOf(key, toOrange!)).toBe(`${dual} sim 1 sim_on_net`);
    // Nobody in the organization is on Airtel, and France is on no network of the table: no wait.
    expect(await claimOf(key, toAirtel!)).toBe(`${dual} sim 1 sim_default`);
    expect(await claimOf(key, toFrance!)).toBe(`${dual} sim 1 sim_default`);
    expect(await claimOf(key, named!)).toBe(`${dual} sim 1 sim_requested`);
  });

  it('an off-net message goes out from another phone once the wait is over when no phone on its network took it; a phone not sending is not waited for', async () => {
    const { org, key } = await app.createOrg();
    const orange = await phone(org.id, [{ subscriptionId: 1, carrierName: 'Orange' }]);
    const airtel = await phone(org.id, [{ subscriptionId: 3, carrierName: 'airtel' }]);
    const [waiting] = await send(key, ['+261320000001']);

    // The Orange phone never claims (busy, or its socket just dropped).
    expect(await claim(org.id, airtel)).toMatchObject({ jobs: [], retryAfterMs: 20_000 });
    clock.t += 19_999;
    expect(await claim(org.id, airtel)).toMatchObject({ jobs: [], retryAfterMs: 1 });
    clock.t += 1;
    expect(ids(await claim(org.id, airtel))).toEqual([waiting]);
    // The Airtel phone has no default SIM: off-net, the SIM is its own choice.
    expect(await claimOf(key, waiting!)).toBe(`${airtel} sim null off_net_after_wait`);

    // Draining, the Orange phone takes nothing new: its network's messages do not wait for it.
    await app.ctx.dispatch.claim({ orgId: org.id, deviceId: orange }, 1); // nothing queued: loads its state
    expect((await app.request('PATCH', `/v1/devices/${orange}`, { key, body: { draining: true } })).status).toBe(200);
    const [notWaiting] = await send(key, ['+261370000002']);
    expect(ids(await claim(org.id, airtel))).toEqual([notWaiting]);
    expect(await claimOf(key, notWaiting!)).toBe(`${airtel} sim null sim_default`);
  });

  it("follows the organization's own carriers table, and routes from Postgres again after Redis lost the phones' state", async () => {
    const { org, key } = await app.createOrg();
    const owner = await signedInMember(app, org.id, 'owner');
    const free = await phone(org.id, [{ subscriptionId: 7, carrierName: 'Free SN' }]);
    const other = await phone(org.id, [{ subscriptionId: 8, carrierName: 'Orange' }]);
    const [before] = await send(key, ['+221761234501']);
    expect(ids(await claim(org.id, free))).toEqual([before]);
    // Free is on no network of the default table (Madagascar's).
    expect(await claimOf(key, before!)).toBe(`${free} sim null sim_default`);

    const carriers = [{ name: 'free', prefixes: ['+22176'], simNames: ['free'] }];
    const patched = await app.request('PATCH', '/dashboard/v1/organization', { headers: owner.headers, body: { carriers } });
    expect(patched.status).toBe(200);
    const [afterChange] = await send(key, ['+221761234502']);
    // The other phone has no Free SIM and the Free phone is sending: the message waits for it.
    expect(await claim(org.id, other)).toMatchObject({ jobs: [] });
    expect(ids(await claim(org.id, free))).toEqual([afterChange]);
    expect(await claimOf(key, afterChange!)).toBe(`${free} sim 7 sim_on_net`);

    // Redis loses every phone's state and the set of phones by network: the Free phone's next claim rebuilds both from Postgres.
    const k = app.ctx.keys.org(org.id);
    await app.ctx.redis.del(k.deviceState(free), k.deviceState(other), k.netPhones());
    const [afterLoss] = await send(key, ['+221761234503']);
    expect(ids(await claim(org.id, free))).toEqual([afterLoss]);
    expect(await claimOf(key, afterLoss!)).toBe(`${free} sim 7 sim_on_net`);
    expect(await app.ctx.redis.zrange(k.netPhones(), '0', '-1')).toEqual([`free|${free}`]);
  });

  it("keeps the organization's prefix table once for all its phones, and loads it from Postgres when Redis has none", async () => {
    const { org, key } = await app.createOrg();
    const orange = await phone(org.id, [{ subscriptionId: 1, carrierName: 'Orange MG' }]);
    const k = app.ctx.keys.org(org.id);
    expect(await app.ctx.redis.get(k.carrierPrefixes())).toBe(encodePrefixes(DEFAULT_CARRIERS));
    expect(await app.ctx.redis.hexists(k.deviceState(orange), 'prefixes')).toBe(0);
    // As an earlier release left Redis: each phone's own copy (here a stale one), no table of the organization's.
    await app.ctx.redis.hset(k.deviceState(orange), 'prefixes', '+26132=orange');
    await app.ctx.redis.del(k.carrierPrefixes());
    const [toOrange] = await send(key, ['+261370000001']);
    expect(ids(await claim(org.id, orange))).toEqual([toOrange]);
    expect(await claimOf(key, toOrange!)).toBe(`${orange} sim 1 sim_on_net`);
    expect(await app.ctx.redis.get(k.carrierPrefixes())).toBe(encodePrefixes(DEFAULT_CARRIERS));
    expect(await app.ctx.redis.hexists(k.deviceState(orange), 'prefixes')).toBe(0);
  });

  it("a heartbeat that changes a SIM's carrier moves the phone to the new network", async () => {
    const { org, key } = await app.createOrg();
    const swapped = await phone(org.id, [{ subscriptionId: 1, carrierName: 'Orange' }]);
    const airtel = await phone(org.id, [{ subscriptionId: 2, carrierName: 'Airtel' }]);
    await recordHeartbeat(app.ctx, { kind: 'device', orgId: org.id, deviceId: swapped }, { sims: [{ subscriptionId: 1, carrierName: 'Telma' }] });
    const [toTelma, toOrange] = await send(key, ['+261340000001', '+261320000002']);
    // The Airtel phone takes the Orange message at once: nobody is on Orange any more.
    expect(ids(await claim(org.id, airtel))).toEqual([toOrange]);
    expect(ids(await claim(org.id, swapped))).toEqual([toTelma]);
    expect(await claimOf(key, toTelma!)).toBe(`${swapped} sim 1 sim_on_net`);
  });
});
