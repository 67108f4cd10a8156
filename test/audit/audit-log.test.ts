import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { pairPhone, startDevicesApp } from '../devices/support.js';
import { signedInMember, type SignedInMember } from '../support/members.js';

/**
 * What the audit log says of an action: the number as stored, the batch a send made, the
 * endpoint a key created (API keys' actions are logged, their sends are not), with filters.
 */
let app: TestApp;
let orgId: string;
let owner: SignedInMember;

beforeAll(async () => {
  app = await startDevicesApp({ webhookAllowHosts: ['localhost'] });
  ({
    org: { id: orgId },
  } = await app.createOrg({ defaultCountry: 'MG' }));
  owner = await signedInMember(app, orgId, 'owner');
  // A send is accepted only while the organization has a phone.
  await pairPhone(app, orgId);
});
afterAll(async () => {
  await app?.close();
});

const asOwner = (method: string, path: string, body?: unknown) => app.request(method, path, { headers: owner.headers, body });
const log = async (query = '') => {
  const res = await asOwner('GET', `/dashboard/v1/audit${query}`);
  expect(res.status).toBe(200);
  return res.body.entries as { action: string; target: string | null; member: { email: string } | null; apiKey: { id: string; name: string } | null; detail: Record<string, unknown> }[];
};

describe('the audit log', () => {
  it('records an opt-out by the number as stored, and a send by its batch', async () => {
    expect((await asOwner('POST', '/v1/opt-outs', { number: '+261 34 00 000 00' })).status).toBe(201);
    const sent = await asOwner('POST', '/v1/messages', { to: ['0341234567', '+261341234568'], body: 'Salama' });
    expect(sent.status).toBe(202);
    const entries = await log();
    expect(entries.find((e) => e.action === 'opt_out.added')).toMatchObject({ target: '+261340000000', member: { email: owner.email }, detail: { typed: '+261 34 00 000 00' } });
    expect(entries.find((e) => e.action === 'messages.sent')).toMatchObject({ target: sent.body.batchId, detail: { messages: 2 } });
  });

  it("records an API key's webhook, names the key, and leaves its sends to the messages", async () => {
    const key = await app.createKey(orgId, ['webhooks:write', 'messages:send']);
    const made = await app.request('POST', '/v1/webhooks', { key: key.key, body: { url: 'https://localhost:9/hook', eventTypes: ['message.sent'] } });
    expect(made.status).toBe(201);
    expect((await app.request('POST', '/v1/messages', { key: key.key, body: { to: '+261341234569', body: 'Salama' } })).status).toBe(202);
    const byKeys = await log('?by=api_key');
    expect(byKeys).toHaveLength(1);
    expect(byKeys[0]).toMatchObject({ action: 'webhook.created', target: made.body.endpoint.id, member: null, apiKey: { id: key.id, name: 'test' }, detail: { url: 'https://localhost:9/hook' } });
    // A refused creation writes nothing.
    expect((await app.request('POST', '/v1/webhooks', { key: key.key, body: { url: 'https://localhost:9/hook', eventTypes: [] } })).status).toBe(400);
    expect(await log('?by=api_key')).toHaveLength(1);
  });

  it('filters by action, by a family of actions and by member', async () => {
    expect((await log('?action=opt_out.added')).map((e) => e.action)).toEqual(['opt_out.added']);
    expect(new Set((await log('?action=messages.')).map((e) => e.action))).toEqual(new Set(['messages.sent']));
    const mine = await log(`?by=${owner.memberId}`);
    expect(mine.length).toBe(2);
    expect(mine.every((e) => e.member?.email === owner.email)).toBe(true);
    expect(await log('?by=mem_nobody')).toEqual([]);
    const bad = await asOwner('GET', '/dashboard/v1/audit?action=DROP%20TABLE');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^action: must be an action/);
  });
});
