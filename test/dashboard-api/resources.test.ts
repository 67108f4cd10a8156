import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember, type SignedInMember } from '../support/members.js';
import { insertTestDevice } from '../support/devices.js';
import { foldTallyDeltas } from '../../src/overview/sql/fold-tally-deltas.js';

let app: TestApp;
let orgId: string;
let key: string;
let viewer: SignedInMember;
let admin: SignedInMember;
let owner: SignedInMember;

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  [viewer, admin, owner] = await Promise.all([signedInMember(app, orgId, 'viewer'), signedInMember(app, orgId, 'admin'), signedInMember(app, orgId, 'owner')]);
  await insertTestDevice(app.ctx, orgId);
});
afterAll(() => app.close());

const auditActions = async () =>
  (await app.request('GET', '/dashboard/v1/audit?limit=100', { headers: owner.headers })).body.entries.map((e: { action: string; target: string | null }) => `${e.action} ${e.target ?? ''}`.trim());

describe('API keys from the dashboard', () => {
  it('are created with scopes and expiry, shown once, work on /v1 with those scopes, and stop at once when rotated or revoked', async () => {
    const bad = await app.request('POST', '/dashboard/v1/keys', { headers: admin.headers, body: { name: 'x', scopes: ['messages:fly'], expiresAt: null } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('scopes');
    const past = await app.request('POST', '/dashboard/v1/keys', { headers: admin.headers, body: { name: 'x', scopes: ['messages:read'], expiresAt: '2020-01-01T00:00:00Z' } });
    expect(past.body.error.message).toContain('expiresAt');
    expect((await app.request('POST', '/dashboard/v1/keys', { headers: viewer.headers, body: { name: 'x', scopes: ['messages:read'], expiresAt: null } })).status).toBe(403);

    const made = await app.request('POST', '/dashboard/v1/keys', {
      headers: admin.headers,
      body: { name: 'reader', scopes: ['messages:read'], expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(made.status).toBe(201);
    const secret: string = made.body.secret;
    expect(made.body.key).toMatchObject({ name: 'reader', scopes: ['messages:read'], revokedAt: null });
    expect(JSON.stringify(made.body.key)).not.toContain(secret);
    expect((await app.request('GET', '/v1/messages', { key: secret })).status).toBe(200);
    expect((await app.request('GET', '/v1/devices', { key: secret })).status).toBe(403);

    const list = await app.request('GET', '/dashboard/v1/keys', { headers: viewer.headers });
    const listed = list.body.keys.find((k: { id: string }) => k.id === made.body.key.id);
    expect(listed.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const rotated = await app.request('POST', `/dashboard/v1/keys/${made.body.key.id}/rotate`, { headers: admin.headers });
    expect(rotated.status).toBe(201);
    expect((await app.request('GET', '/v1/messages', { key: secret })).status).toBe(401);
    expect((await app.request('GET', '/v1/messages', { key: rotated.body.secret })).status).toBe(200);
    const revoked = await app.request('DELETE', `/dashboard/v1/keys/${rotated.body.key.id}`, { headers: admin.headers });
    expect(revoked.body.revokedAt).not.toBeNull();
    expect((await app.request('GET', '/v1/messages', { key: rotated.body.secret })).status).toBe(401);
    expect(await auditActions()).toEqual(expect.arrayContaining([`key.created ${made.body.key.id}`, `key.rotated ${made.body.key.id}`, `key.revoked ${rotated.body.key.id}`]));
  });

  it("another organization's key answers 404", async () => {
    const other = await app.createOrg();
    const theirs = await app.createKey(other.org.id, ['messages:read']);
    expect((await app.request('DELETE', `/dashboard/v1/keys/${theirs.id}`, { headers: admin.headers })).status).toBe(404);
    expect((await app.request('GET', '/v1/messages', { key: theirs.key })).status).toBe(200);
  });
});

describe('organization settings', () => {
  it('owners change them (a new daily limit applies to the next send); others read them; bad values name the field', async () => {
    expect((await app.request('GET', '/dashboard/v1/organization', { headers: viewer.headers })).body.defaultCountry).toBe('MG');
    expect((await app.request('PATCH', '/dashboard/v1/organization', { headers: admin.headers, body: { dailyLimit: 5 } })).status).toBe(403);
    const bad = await app.request('PATCH', '/dashboard/v1/organization', { headers: owner.headers, body: { defaultCountry: 'XX' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('defaultCountry');
    expect((await app.request('PATCH', '/dashboard/v1/organization', { headers: owner.headers, body: { dailyLimit: 0 } })).body.error.message).toContain('dailyLimit');
    const changed = await app.request('PATCH', '/dashboard/v1/organization', { headers: owner.headers, body: { dailyLimit: 3, retentionDays: 7, aiConsent: true } });
    expect(changed.body).toMatchObject({ dailyLimit: 3, retentionDays: 7, aiConsent: true });
    const over = await app.request('POST', '/v1/messages', { key, body: { to: ['+261341111111', '+261341111112', '+261341111113', '+261341111114'], body: 'x' } });
    expect(over.status).toBe(429);
    await app.request('PATCH', '/dashboard/v1/organization', { headers: owner.headers, body: { dailyLimit: 1000 } });
    expect(await auditActions()).toContain(`organization.updated ${orgId}`);
  });

  it("carriers: Madagascar's networks until an owner sets them; a bad prefix or a prefix on two networks is a 400 naming the field", async () => {
    const read = await app.request('GET', '/dashboard/v1/organization', { headers: viewer.headers });
    expect(read.body).toMatchObject({ carriersAreDefault: true });
    expect(read.body.carriers.map((c: { name: string; prefixes: string[] }) => `${c.name} ${c.prefixes.join(' ')}`)).toEqual(['orange +26132 +26137', 'airtel +26133', 'telma +26134 +26138']);

    const patch = (carriers: unknown, headers = owner.headers) => app.request('PATCH', '/dashboard/v1/organization', { headers, body: { carriers } });
    const badPrefix = await patch([{ name: 'orange', prefixes: ['032'], simNames: ['orange'] }]);
    expect(badPrefix.status).toBe(400);
    expect(badPrefix.body.error.message).toMatch(/carriers.*0.*prefixes.*0.*E\.164 prefix/);
    const twice = await patch([
      { name: 'orange', prefixes: ['+26132'], simNames: ['orange'] },
      { name: 'airtel', prefixes: ['+26133', '+26132'], simNames: ['airtel'] },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toBe("carriers[1].prefixes[1]: +26132 is already orange's");
    expect((await patch([{ name: 'Orange MG', prefixes: ['+26132'], simNames: ['orange'] }])).body.error.message).toMatch(/carriers.*0.*name/);
    expect((await patch(Array.from({ length: 17 }, (_, i) => ({ name: `c${i}`, prefixes: [`+2613${i}`], simNames: ['x'] })))).status).toBe(400);
    expect((await patch([], admin.headers)).status).toBe(403);

    const own = [{ name: 'orange', prefixes: ['+26132'], simNames: ['orange'] }];
    expect((await patch(own)).body).toMatchObject({ carriers: own, carriersAreDefault: false });
    // Another organization still has the default table.
    const other = await app.createOrg();
    const theirs = await app.ctx.db.query('SELECT carriers FROM organizations WHERE id = $1', [other.org.id]);
    expect(theirs.rows[0].carriers).toBeNull();
    expect((await patch(null)).body).toMatchObject({ carriersAreDefault: true });
  });
});

describe('messages by members', () => {
  it('record source member for a send, a cancel and a resend, with audit entries; filters by recipient and phone', async () => {
    const sent = await app.request('POST', '/v1/messages', { headers: admin.headers, body: { to: ['0341234501', '0341234502'], body: 'Salama' } });
    expect(sent.status).toBe(202);
    const [a, b] = sent.body.messages as { id: string }[];
    const cancelled = await app.request('POST', `/v1/messages/${a!.id}/cancel`, { headers: admin.headers });
    expect(cancelled.status).toBe(200);
    const detail = await app.request('GET', `/v1/messages/${a!.id}`, { headers: viewer.headers });
    expect(detail.body.events.map((e: { toStatus: string; source: string }) => `${e.toStatus}:${e.source}`)).toEqual(['queued:member', 'cancelled:member']);
    const resent = await app.request('POST', `/v1/messages/${a!.id}/resend`, { headers: admin.headers });
    expect(resent.status).toBe(202);
    const again = await app.request('GET', `/v1/messages/${resent.body.messages[0].id}`, { key });
    expect(again.body.events[0]).toMatchObject({ toStatus: 'queued', source: 'member' });
    expect(again.body.resendOfId).toBe(a!.id);
    expect(await auditActions()).toEqual(expect.arrayContaining([`message.cancelled ${a!.id}`, `message.resent ${a!.id}`, `messages.sent ${sent.body.batchId}`]));

    const byRecipient = await app.request('GET', '/v1/messages?to=034 12 345 02', { headers: viewer.headers });
    expect(byRecipient.body.messages.map((m: { id: string }) => m.id)).toEqual([b!.id]);
    const badTo = await app.request('GET', '/v1/messages?to=hello', { key });
    expect(badTo.status).toBe(400);
    expect(badTo.body.error.message).toContain('to');
    const page1 = await app.request('GET', '/v1/messages?to=%2B261341234501&limit=1', { key });
    expect(page1.body.messages).toHaveLength(1);
    const page2 = await app.request('GET', `/v1/messages?to=%2B261341234501&limit=1&before=${page1.body.nextCursor}`, { key });
    expect(page2.body.messages[0].id).toBe(a!.id);
    expect((await app.request('GET', '/v1/messages?deviceId=dev_nobody', { key })).body.messages).toEqual([]);

    const statuses = await app.request('GET', `/dashboard/v1/messages/statuses?ids=${a!.id},${b!.id},msg_other`, { headers: viewer.headers });
    expect(Object.fromEntries(statuses.body.messages.map((m: { id: string; status: string }) => [m.id, m.status]))).toEqual({ [a!.id]: 'cancelled', [b!.id]: 'queued' });
  });

  it('checks recipients as the send would, line by line', async () => {
    const res = await app.request('POST', '/dashboard/v1/recipients/check', { headers: viewer.headers, body: { to: ['034 12 345 67', '+33612345678', 'hello'] } });
    expect(res.body.recipients.map((r: { number: string | null }) => r.number)).toEqual(['+261341234567', '+33612345678', null]);
    expect(res.body.recipients[2].error).toContain('not a phone number');
  });
});

describe('overview from tallies', () => {
  it('counts today by status, before and after the worker folds the deltas, equal to a count of the rows', async () => {
    const { org, key: k } = await app.createOrg();
    const m = await signedInMember(app, org.id, 'viewer');
    await insertTestDevice(app.ctx, org.id);
    const sent = await app.request('POST', '/v1/messages', { key: k, body: { to: ['+261341000001', '+261341000002', '+261341000003'], body: 'x' } });
    await app.request('POST', `/v1/messages/${sent.body.messages[0].id}/cancel`, { key: k });
    const before = await app.request('GET', '/dashboard/v1/overview', { headers: m.headers });
    expect(before.body.today).toMatchObject({ byStatus: { queued: 2, cancelled: 1 }, total: 3, dailyLimit: 1000 });
    expect(before.body.devices).toMatchObject({ online: 0, neverSeen: 1 });
    await foldTallyDeltas(app.ctx.db);
    const after = await app.request('GET', '/dashboard/v1/overview', { headers: m.headers });
    expect(after.body.today).toEqual(before.body.today);
    const { rows } = await app.ctx.db.query(`SELECT status, count(*)::int AS n FROM messages WHERE org_id = $1 GROUP BY status`, [org.id]);
    expect(Object.fromEntries(rows.map((r: { status: string; n: number }) => [r.status, r.n]))).toEqual(after.body.today.byStatus);
    const stats = await app.request('GET', '/dashboard/v1/stats/messages?range=7d', { headers: m.headers });
    expect(stats.body.buckets).toHaveLength(168);
    expect(stats.body.buckets.at(-1).byStatus).toEqual({ queued: 2, cancelled: 1 });
    expect((await app.request('GET', '/dashboard/v1/stats/messages?range=1y', { headers: m.headers })).status).toBe(400);
  });
});

describe('pairing and review', () => {
  it('an admin gets a pairing code with its QR payload naming the server as the browser reaches it', async () => {
    const res = await app.request('POST', '/dashboard/v1/pairings', { headers: admin.headers, body: { name: 'Front desk' } });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body.qrPayload)).toEqual({ hafatra: 'pair', v: 1, server: new URL(app.url).origin, code: res.body.code });
    expect((await app.request('POST', '/dashboard/v1/pairings', { headers: viewer.headers, body: {} })).status).toBe(403);
  });

  it("a review of another organization's record answers 404", async () => {
    const res = await app.request('POST', '/dashboard/v1/mobile-money/mm_nothing/review', { headers: admin.headers, body: { note: 'checked' } });
    expect(res.status).toBe(404);
  });
});

describe("a phone's pacing", () => {
  it('admins set it, viewers read it, bad values name the field, another org answers 404', async () => {
    const deviceId = await insertTestDevice(app.ctx, orgId, { name: 'Paced' });
    expect((await app.request('GET', `/dashboard/v1/devices/${deviceId}/pacing`, { headers: viewer.headers })).body).toMatchObject({ pacingPerMinute: null, simDailyCap: null });
    expect((await app.request('PATCH', `/dashboard/v1/devices/${deviceId}/pacing`, { headers: viewer.headers, body: { pacingPerMinute: 5 } })).status).toBe(403);
    const bad = await app.request('PATCH', `/dashboard/v1/devices/${deviceId}/pacing`, { headers: admin.headers, body: { pacingPerMinute: 0 } });
    expect(bad.body.error.message).toContain('pacingPerMinute');
    const set = await app.request('PATCH', `/dashboard/v1/devices/${deviceId}/pacing`, { headers: admin.headers, body: { pacingPerMinute: 12, simDailyCap: 200 } });
    expect(set.body).toMatchObject({ pacingPerMinute: 12, simDailyCap: 200 });
    expect(await app.ctx.redis.hget(app.ctx.keys.org(orgId).deviceState(deviceId), 'pace')).toBe('12');
    const other = await app.createOrg();
    const stranger = await signedInMember(app, other.org.id, 'admin');
    expect((await app.request('PATCH', `/dashboard/v1/devices/${deviceId}/pacing`, { headers: stranger.headers, body: { pacingPerMinute: 1 } })).status).toBe(404);
  });
});
