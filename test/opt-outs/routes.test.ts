import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember } from '../support/members.js';
import { schemaErrors } from '../devices/support.js';
import { OptOutSchema } from '../../src/opt-outs/opt-out-row.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('/v1/opt-outs', () => {
  it('adds a number in E.164 (201), answers the same entry when added again (200), lists it and removes it', async () => {
    const { key } = await app.createOrg();
    const added = await app.request('POST', '/v1/opt-outs', { key, body: { number: '034 11 222 33', reason: 'asked by phone' } });
    expect(added.status).toBe(201);
    expect(schemaErrors(OptOutSchema, added.body)).toEqual([]);
    expect(added.body).toMatchObject({ id: expect.stringMatching(/^opt_/), number: '+261341122233', source: 'api', incomingMessageId: null, reason: 'asked by phone' });
    const again = await app.request('POST', '/v1/opt-outs', { key, body: { number: '+261341122233' } });
    expect(again).toMatchObject({ status: 200, body: added.body });

    await app.request('POST', '/v1/opt-outs', { key, body: { number: '+261341122234' } });
    const page1 = await app.request('GET', '/v1/opt-outs?limit=1', { key });
    expect(page1.body.optOuts.map((o: { number: string }) => o.number)).toEqual(['+261341122234']);
    const page2 = await app.request('GET', `/v1/opt-outs?limit=1&before=${page1.body.nextCursor}`, { key });
    expect(page2.body).toEqual({ optOuts: [added.body], nextCursor: null });
    const one = await app.request('GET', `/v1/opt-outs?number=${encodeURIComponent('0341122233')}`, { key });
    expect(one.body.optOuts).toEqual([added.body]);

    expect((await app.request('DELETE', `/v1/opt-outs/${added.body.id}`, { key })).status).toBe(204);
    expect((await app.request('DELETE', '/v1/opt-outs/261341122234', { key })).status).toBe(204);
    expect((await app.request('GET', '/v1/opt-outs', { key })).body.optOuts).toEqual([]);
    expect((await app.request('DELETE', '/v1/opt-outs/261341122234', { key })).status).toBe(404);
    const history = await app.ctx.db.query('SELECT action, source FROM opt_out_changes WHERE number = $1 ORDER BY id', ['+261341122233']);
    expect(history.rows).toEqual([
      { action: 'added', source: 'api' },
      { action: 'removed', source: 'api' },
    ]);
  });

  it('refuses what is not a phone number with a 400 naming the field, and changes nothing', async () => {
    const { key } = await app.createOrg();
    const bad = await app.request('POST', '/v1/opt-outs', { key, body: { number: 'MVola' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^number: "MVola" is not a phone number/);
    const missing = await app.request('POST', '/v1/opt-outs', { key, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/number/);
    const query = await app.request('GET', '/v1/opt-outs?number=abc', { key });
    expect(query.status).toBe(400);
    expect(query.body.error.message).toMatch(/^query\.number/);
    expect((await app.request('GET', '/v1/opt-outs', { key })).body.optOuts).toEqual([]);
  });

  it('needs opt-outs:read to list and opt-outs:write to change', async () => {
    const { org, key } = await app.createOrg();
    const reader = await app.createKey(org.id, ['opt-outs:read']);
    const sender = await app.createKey(org.id, ['messages:send', 'messages:read']);
    const entry = (await app.request('POST', '/v1/opt-outs', { key, body: { number: '+261341122235' } })).body;
    expect((await app.request('GET', '/v1/opt-outs', { key: sender.key })).status).toBe(403);
    expect((await app.request('GET', '/v1/opt-outs', { key: reader.key })).status).toBe(200);
    const write = await app.request('POST', '/v1/opt-outs', { key: reader.key, body: { number: '+261341122236' } });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toContain('opt-outs:write');
    expect((await app.request('DELETE', `/v1/opt-outs/${entry.id}`, { key: reader.key })).status).toBe(403);
    expect((await app.request('GET', '/v1/opt-outs', { key })).body.optOuts).toHaveLength(1);
  });

  it("answers 404 for another organization's entry and never lists it", async () => {
    const a = await app.createOrg();
    const b = await app.createOrg();
    const entry = (await app.request('POST', '/v1/opt-outs', { key: a.key, body: { number: '+261341122237' } })).body;
    expect((await app.request('DELETE', `/v1/opt-outs/${entry.id}`, { key: b.key })).status).toBe(404);
    expect((await app.request('DELETE', '/v1/opt-outs/261341122237', { key: b.key })).status).toBe(404);
    expect((await app.request('GET', '/v1/opt-outs', { key: b.key })).body.optOuts).toEqual([]);
    // The same number is b's own to add, and still a's.
    expect((await app.request('POST', '/v1/opt-outs', { key: b.key, body: { number: '+261341122237' } })).status).toBe(201);
    expect((await app.request('GET', '/v1/opt-outs', { key: a.key })).body.optOuts).toEqual([entry]);
  });

  it('lets a dashboard viewer read the list but not change it; an admin adds as a member, in the audit log', async () => {
    const { org, key } = await app.createOrg();
    await app.request('POST', '/v1/opt-outs', { key, body: { number: '+261341122238' } });
    const viewer = await signedInMember(app, org.id, 'viewer');
    expect((await app.request('GET', '/v1/opt-outs', { headers: viewer.headers })).body.optOuts).toHaveLength(1);
    expect((await app.request('POST', '/v1/opt-outs', { headers: viewer.headers, body: { number: '+261341122239' } })).status).toBe(403);
    expect((await app.request('DELETE', '/v1/opt-outs/261341122238', { headers: viewer.headers })).status).toBe(403);
    const admin = await signedInMember(app, org.id, 'admin');
    const added = await app.request('POST', '/v1/opt-outs', { headers: admin.headers, body: { number: '+261341122239' } });
    expect(added).toMatchObject({ status: 201, body: { source: 'member' } });
    const audit = await app.ctx.db.query('SELECT action, target FROM audit_log WHERE org_id = $1 AND member_id = $2', [org.id, admin.memberId]);
    expect(audit.rows).toEqual([{ action: 'opt_out.added', target: '+261341122239' }]);
  });
});

describe('the organization setting optOut', () => {
  it('shows the shipped words until an owner sets others, and refuses a word in both lists', async () => {
    const { org } = await app.createOrg();
    const owner = await signedInMember(app, org.id, 'owner');
    const settings = async () => (await app.request('GET', '/dashboard/v1/organization', { headers: owner.headers })).body.optOut;
    expect(await settings()).toEqual({ stopWords: ['STOP', 'ARRET', 'ARRÊT', 'DESABONNER', 'UNSUBSCRIBE'], startWords: ['START'], wordsAreDefault: true, stopReply: null, startReply: null });
    const patch = (optOut: unknown) => app.request('PATCH', '/dashboard/v1/organization', { headers: owner.headers, body: { optOut } });
    const both = await patch({ startWords: ['Stop.'] });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toBe('optOut: STOP cannot be both a stop word and a start word');
    const saved = await patch({ stopWords: ['Tsia', 'STOP'], stopReply: 'Voaray.' });
    expect(saved.status).toBe(200);
    expect(saved.body.optOut).toEqual({ stopWords: ['Tsia', 'STOP'], startWords: ['START'], wordsAreDefault: false, stopReply: 'Voaray.', startReply: null });
    expect((await patch({ stopWords: null, stopReply: null })).body.optOut).toMatchObject({ wordsAreDefault: true, stopReply: null });
    const admin = await signedInMember(app, org.id, 'admin');
    expect((await app.request('PATCH', '/dashboard/v1/organization', { headers: admin.headers, body: { optOut: { stopReply: 'x' } } })).status).toBe(403);
  });
});
