import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createLink } from '../../src/members/sql/create-link.js';
import { membersRoutes } from '../../src/members/routes.js';
import type { AnyRoute } from '../../src/http/router.js';
import { SEED, bodyBytes, expectAlive, expectWellFormed, send } from './support.js';

/**
 * The dashboard's account routes (sign-in, one-time links, password change, switching
 * organization, members and their reset links), fuzzed as a signed-in browser of the same origin
 * would send them, and as strangers: generated bodies, some holding a real open link, the owner's
 * real email or a cookie. Properties: never a 5xx, every refusal in the error shape, the process
 * alive, and a refused request changes no account, membership, session or link.
 */
let app: TestApp;
let routes: AnyRoute[];
let owner: { memberId: string; email: string; cookie: string; orgId: string };
let openLink: string;

beforeAll(async () => {
  app = await startTestApp();
  const { org } = await app.createOrg();
  const email = 'fuzz-owner@example.org';
  const { token } = await createLink(app.ctx.db, { kind: 'invitation', orgId: org.id, email, role: 'owner' });
  const res = await app.request('POST', '/dashboard/v1/links/accept', { headers: { origin: new URL(app.url).origin }, body: { token, password: 'the owner password' } });
  expect(res.status).toBe(200);
  owner = { memberId: res.body.member.id, email, orgId: org.id, cookie: /hafatra_session=([^;]*)/.exec(res.headers.get('set-cookie')!)![1]! };
  openLink = (await createLink(app.ctx.db, { kind: 'invitation', orgId: org.id, email: 'fuzz-invitee@example.org', role: 'viewer' })).token;
  // Signing out would end the session the other cases use; it is tested on its own elsewhere.
  routes = membersRoutes(app.ctx).filter((r) => !(r.method === 'delete' && r.path === '/dashboard/v1/session'));
});
afterAll(() => app.close());

/** Everything a refused request must leave as it was. */
async function accountState() {
  const { rows } = await app.ctx.db.query(
    `SELECT (SELECT string_agg(id || ':' || coalesce(password_hash, ''), ',' ORDER BY id) FROM members) AS members,
            (SELECT string_agg(org_id || member_id || role, ',' ORDER BY org_id, member_id) FROM memberships) AS memberships,
            (SELECT string_agg(id || org_id || coalesce(ended_reason, ''), ',' ORDER BY id) FROM member_sessions) AS sessions,
            (SELECT string_agg(id || coalesce(used_at::text, '') || coalesce(revoked_at::text, ''), ',' ORDER BY id) FROM one_time_links) AS links`,
  );
  return rows[0];
}

const cookie = fc.constantFrom<string[]>(['Cookie: hafatra_session=OWNER'], [], ['Cookie: hafatra_session=xyz'], ['Cookie: hafatra_session='], ['Cookie: a=b; hafatra_session=OWNER; c']);
const origin = fc.oneof(
  { arbitrary: fc.constant(['Origin: http://fuzz']), weight: 6 },
  { arbitrary: fc.constantFrom<string[]>([], ['Origin: https://evil.example'], ['Origin: null'], ['Origin: http://fuzz', 'Sec-Fetch-Site: cross-site']), weight: 2 },
);
const contentType = fc.oneof({ arbitrary: fc.constant(['Content-Type: application/json']), weight: 6 }, { arbitrary: fc.constantFrom<string[]>(['Content-Type: text/plain'], []), weight: 1 });
/** Values that reach the account logic: the real open link, the owner's email, passwords short and long. */
const POINTED: Record<string, fc.Arbitrary<unknown>> = {
  token: fc.constantFrom('OPEN_LINK', 'a'.repeat(43), '', '#'),
  email: fc.constantFrom('fuzz-owner@example.org', 'FUZZ-OWNER@example.org ', 'fuzz-invitee@example.org', 'x@y', 'a'.repeat(300)),
  password: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('the owner password', 'a'.repeat(257), 'b'.repeat(1025))),
  currentPassword: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('the owner password')),
  newPassword: fc.string({ maxLength: 20 }),
  organizationId: fc.constantFrom('ORG', 'org_x', ''),
  role: fc.constantFrom('owner', 'viewer', 'king'),
};

/** A body of the route's own fields (any of them left out), each from the pointed values. */
function pointedBody(route: AnyRoute): fc.Arbitrary<Buffer> {
  const names = Object.keys((route.body as { properties?: object } | undefined)?.properties ?? {});
  const fields = Object.fromEntries(names.map((n) => [n, POINTED[n] ?? fc.string({ maxLength: 30 })]));
  return fc.record(fields, { requiredKeys: [] }).map((b) => Buffer.from(JSON.stringify(b).replace('OPEN_LINK', openLink).replace('"ORG"', JSON.stringify(owner.orgId))));
}

const ROUTE_NAMES = membersRoutes({ config: {}, db: {}, redis: {}, keys: {}, log: {} } as never)
  .filter((r) => !(r.method === 'delete' && r.path === '/dashboard/v1/session'))
  .map((r) => `${r.method} ${r.path}`);

describe("the dashboard's account routes, fuzzed", () => {
  it.each(ROUTE_NAMES)(
    '%s',
    async (name) => {
      const route = routes.find((r) => `${r.method} ${r.path}` === name)!;
      const body = fc.oneof({ arbitrary: bodyBytes(route.body), weight: 1 }, { arbitrary: pointedBody(route), weight: 2 });
      const ids = fc.constantFrom('MEMBER', 'mem_x', '%ff', 'a'.repeat(100));
      await fc.assert(
        fc.asyncProperty(fc.record({ cookie, origin, contentType, body, id: ids }), async (c) => {
          const target = route.path.replace(/:\w+/g, c.id === 'MEMBER' ? owner.memberId : c.id);
          const headers = [...c.cookie.map((h) => h.replace('OWNER', owner.cookie)), ...c.origin, ...c.contentType];
          const before = await accountState();
          const res = await send(app, route.method, target, headers, route.method === 'get' ? undefined : c.body);
          const what = `${route.method} ${target} ${JSON.stringify(headers)} ${c.body.toString('utf8').slice(0, 200)}`;
          expectWellFormed(res, what);
          if (res.status >= 400) expect(await accountState(), `refused but wrote: ${what}`).toEqual(before);
          await expectAlive(app);
        }),
        { seed: SEED, numRuns: 40 },
      );
    },
    120_000,
  );
});
