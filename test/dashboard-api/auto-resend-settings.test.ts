import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember } from '../support/members.js';
import { expectError } from '../api/expect-error.js';
import { DEFAULT_RESEND_CODES } from '../../src/sending/auto-resend/policy.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const patch = (headers: Record<string, string>, body: unknown) => app.request('PATCH', '/dashboard/v1/organization', { headers, body });

it('is off by default with the shipped codes; owners change it, and null brings the shipped codes back', async () => {
  const { org } = await app.createOrg();
  const owner = await signedInMember(app, org.id, 'owner');
  const viewer = await signedInMember(app, org.id, 'viewer');
  const shown = await app.request('GET', '/dashboard/v1/organization', { headers: viewer.headers });
  expect(shown.body.autoResend).toEqual({ attempts: 0, failureCodes: [...DEFAULT_RESEND_CODES] });

  expect((await patch(viewer.headers, { autoResend: { attempts: 2 } })).status).toBe(403);
  const set = await patch(owner.headers, { autoResend: { attempts: 2, failureCodes: ['no_service', 'radio_off'] } });
  expect(set.status).toBe(200);
  expect(set.body.autoResend).toEqual({ attempts: 2, failureCodes: ['no_service', 'radio_off'] });
  // Each part may change alone.
  expect((await patch(owner.headers, { autoResend: { attempts: 3 } })).body.autoResend).toEqual({ attempts: 3, failureCodes: ['no_service', 'radio_off'] });
  expect((await patch(owner.headers, { autoResend: { failureCodes: null } })).body.autoResend).toEqual({ attempts: 3, failureCodes: [...DEFAULT_RESEND_CODES] });
  expect((await patch(owner.headers, { dailyLimit: 500 })).body.autoResend.attempts).toBe(3);
});

it('refuses bad values naming the field, and changes nothing', async () => {
  const { org } = await app.createOrg();
  const owner = await signedInMember(app, org.id, 'owner');
  expectError(await patch(owner.headers, { autoResend: { attempts: 6 } }), 400, 'invalid_request', /^autoResend\.attempts: must be an integer from 0 to 5/);
  expectError(await patch(owner.headers, { autoResend: { attempts: -1 } }), 400, 'invalid_request', /attempts/);
  expectError(await patch(owner.headers, { autoResend: { failureCodes: ['No Service'] } }), 400, 'invalid_request', /^autoResend\.failureCodes\[0\]: must be a failure code/);
  expectError(await patch(owner.headers, { autoResend: { failureCodes: ['no_service', 'no_service'] } }), 400, 'invalid_request', /failureCodes/);
  expectError(await patch(owner.headers, { autoResend: { failureCodes: ['no_service', 'opted_out'] } }), 400, 'invalid_request', /failureCodes: opted_out/);
  expectError(await patch(owner.headers, { autoResend: { tries: 1 } }), 400, 'invalid_request', /tries/);
  expectError(await patch(owner.headers, { autoResend: 2 }), 400, 'invalid_request', /autoResend/);
  const shown = await app.request('GET', '/dashboard/v1/organization', { headers: owner.headers });
  expect(shown.body.autoResend).toEqual({ attempts: 0, failureCodes: [...DEFAULT_RESEND_CODES] });
});

it("changes only the owner's own organization", async () => {
  const mine = await app.createOrg();
  const theirs = await app.createOrg({ autoResend: { attempts: 1 } });
  const owner = await signedInMember(app, mine.org.id, 'owner');
  await patch(owner.headers, { autoResend: { attempts: 4 } });
  const other = await signedInMember(app, theirs.org.id, 'viewer');
  expect((await app.request('GET', '/dashboard/v1/organization', { headers: other.headers })).body.autoResend.attempts).toBe(1);
});
