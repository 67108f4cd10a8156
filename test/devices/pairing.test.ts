import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { TestApp } from '../support/harness.js';
import { expectError } from '../api/expect-error.js';
import { createPairingCode, PAIRING_FAILURES_PER_ADDRESS_PER_MINUTE, PAIRING_FAILURES_PER_MINUTE } from '../../src/devices/pairing.js';
import { heartbeat, startDevicesApp } from './support.js';

/**
 * Failures are counted per minute of the database's clock: attempts that straddle a minute's
 * end start a new count, and a test of the limit then sees no 429 (a CI run did, once). Waits
 * for the next minute when fewer than `seconds` are left in this one.
 */
async function awayFromMinuteEnd(testApp: TestApp, seconds = 15): Promise<void> {
  const { rows } = await testApp.ctx.db.query(`SELECT extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now()) * 1000 AS "leftMs"`);
  const leftMs = Number(rows[0].leftMs);
  if (leftMs < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, leftMs + 100));
}

let app: TestApp;
/** The same API behind a trusted proxy: the client's address is the last X-Forwarded-For entry. */
let proxied: TestApp;
let orgId: string;
let key: string;

beforeAll(async () => {
  app = await startDevicesApp();
  proxied = await startDevicesApp({ trustProxy: true });
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
});
afterAll(async () => {
  await app.ctx.db.query(`DELETE FROM pairing_failures WHERE address LIKE '203.0.113.%' OR address LIKE '10.%' OR address = '2001:db8::7'`);
  await proxied.close();
  await app.close();
});

/**
 * Pairs through the trusted proxy from an address of its own each time, so this file's wrong and
 * reused codes never add up to an address's limit (other test files pair from 127.0.0.1).
 */
const octet = () => Math.floor(Math.random() * 256);
const pair = (body: unknown) => proxied.request('POST', '/device/v1/pair', { body, headers: { 'x-forwarded-for': `10.${octet()}.${octet()}.${octet()}` } });

describe('pairing codes', () => {
  it('are 8 unambiguous characters shown as XXXX-XXXX, valid for 10 minutes, stored only hashed', async () => {
    const { code, expiresAt } = await createPairingCode(app.ctx, orgId);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(595_000);
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(600_000);
    const stored = await app.ctx.db.query('SELECT code_hash FROM pairing_codes WHERE org_id = $1', [orgId]);
    const hex = stored.rows.map((r) => (r.code_hash as Buffer).toString('hex'));
    expect(hex).toContain(createHash('sha256').update(code.replace('-', '')).digest('hex'));
    expect(JSON.stringify(stored.rows)).not.toContain(code.replace('-', ''));
  });

  it('exchange for a device id and an hfd_ token that works, stored as SHA-256', async () => {
    const { code } = await createPairingCode(app.ctx, orgId);
    const res = await pair({ code, name: 'Shop', model: 'SM-A125F', appVersion: '0.9.1' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['deviceId', 'token']);
    expect(res.body.deviceId).toMatch(/^dev_/);
    expect(res.body.token).toMatch(/^hfd_[A-Za-z0-9_-]{43}$/);
    const row = (await app.ctx.db.query('SELECT token_hash, org_id FROM devices WHERE id = $1', [res.body.deviceId])).rows[0];
    expect(row.org_id).toBe(orgId);
    expect((row.token_hash as Buffer).toString('hex')).toBe(createHash('sha256').update(res.body.token).digest('hex'));
    expect((await heartbeat(app, res.body.token, {})).status).toBe(200);
    const device = (await app.request('GET', `/v1/devices/${res.body.deviceId}`, { key })).body;
    expect(device).toMatchObject({ name: 'Shop', model: 'SM-A125F', appVersion: '0.9.1' });
  });

  it('work once: a second use is 401 and makes no second device', async () => {
    const { code } = await createPairingCode(app.ctx, orgId);
    const before = (await app.request('GET', '/v1/devices', { key })).body.devices.length;
    expect((await pair({ code })).status).toBe(200);
    expectError(await pair({ code }), 401, 'unauthorized', /pairing code/);
    expect((await app.request('GET', '/v1/devices', { key })).body.devices.length).toBe(before + 1);
  });

  it('work once even when two phones race with the same code', async () => {
    const { code } = await createPairingCode(app.ctx, orgId);
    const results = await Promise.all(Array.from({ length: 8 }, () => pair({ code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
  });

  it('stop working after 10 minutes', async () => {
    const { code } = await createPairingCode(app.ctx, orgId);
    await app.ctx.db.query(`UPDATE pairing_codes SET expires_at = now() - interval '1 second' WHERE org_id = $1 AND used_at IS NULL`, [orgId]);
    expectError(await pair({ code }), 401, 'unauthorized');
  });

  it('may be typed in lower case, without the dash, with spaces', async () => {
    const { code } = await createPairingCode(app.ctx, orgId);
    const typed = ` ${code.slice(0, 4).toLowerCase()} ${code.slice(5).toLowerCase()} `;
    expect((await pair({ code: typed })).status).toBe(200);
  });

  it("name the phone with the operator's --name first, else the phone's name, else its model", async () => {
    const named = async (codeName: string | undefined, body: object) => {
      const { code } = await createPairingCode(app.ctx, orgId, codeName);
      const { deviceId } = (await pair({ code, ...body })).body;
      return (await app.request('GET', `/v1/devices/${deviceId}`, { key })).body.name;
    };
    expect(await named('Front desk', { name: 'My phone', model: 'Pixel' })).toBe('Front desk');
    expect(await named(undefined, { name: 'My phone', model: 'Pixel' })).toBe('My phone');
    expect(await named(undefined, { model: 'Pixel' })).toBe('Pixel');
    expect(await named(undefined, {})).toMatch(/^Android phone( \(\d+\))?$/); // numbered after the phones of this organization's other tests
  });

  it('refuse a malformed body with 400 and a non-JSON one with 415', async () => {
    expectError(await pair({}), 400, 'invalid_request', /^code/);
    expectError(await pair({ code: 'ABCD-EFGH', name: '' }), 400, 'invalid_request', /^name/);
    expectError(await app.request('POST', '/device/v1/pair', { rawBody: 'code=x', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
  });

  it(`answer 429 to an address after ${PAIRING_FAILURES_PER_ADDRESS_PER_MINUTE} failed attempts from it in a minute, even for a good code; other addresses still pair`, async () => {
    const from = (address: string) => (body: unknown) => proxied.request('POST', '/device/v1/pair', { body, headers: { 'x-forwarded-for': `198.51.100.1, ${address}` } });
    const guesser = from(`203.0.113.${10 + Math.floor(Math.random() * 200)}`);
    const { code } = await createPairingCode(proxied.ctx, orgId);
    await awayFromMinuteEnd(app);
    for (let i = 0; i < PAIRING_FAILURES_PER_ADDRESS_PER_MINUTE; i++) expect((await guesser({ code: `WRNG-${String(i).padStart(4, '0')}` })).status).toBe(401);
    const res = await guesser({ code });
    expectError(res, 429, 'rate_limited', /this address/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // The proxy's own entry (the last) is what counts, not what the client put before it.
    expect((await from('2001:db8::7')({ code })).status).toBe(200);
  });

  it("counts an attempt against the socket's address, ignoring X-Forwarded-For, unless told to trust a proxy", async () => {
    const spoofed = '192.0.2.99';
    const res = await app.request('POST', '/device/v1/pair', { body: { code: 'WRNG-SPOF' }, headers: { 'x-forwarded-for': spoofed } });
    expect(res.status).toBe(401);
    // Other test files' failures from 127.0.0.1 share its rows: only this minute's (or the last, should it have just turned) is looked at.
    const { rows } = await app.ctx.db.query(`SELECT DISTINCT address FROM pairing_failures WHERE address IN ($1, '127.0.0.1') AND minute >= date_trunc('minute', now() - interval '1 minute')`, [
      spoofed,
    ]);
    expect(rows.map((r) => r.address)).toEqual(['127.0.0.1']);
    // Other test files pair from 127.0.0.1: give back the failure this test cost it.
    await app.ctx.db.query(`UPDATE pairing_failures SET failures = failures - 1 WHERE address = '127.0.0.1' AND minute = date_trunc('minute', now())`);
  });

  it("counts an attempt against the socket's address behind a trusted proxy when X-Forwarded-For is missing", async () => {
    expect((await proxied.request('POST', '/device/v1/pair', { body: { code: 'WRNG-NOXF' } })).status).toBe(401);
    const { rows } = await app.ctx.db.query(`SELECT DISTINCT address FROM pairing_failures WHERE address IN ('', '127.0.0.1') AND minute >= date_trunc('minute', now() - interval '1 minute')`);
    expect(rows.map((r) => r.address)).toEqual(['127.0.0.1']);
    // Other test files pair from 127.0.0.1: give back the failure this test cost it.
    await app.ctx.db.query(`UPDATE pairing_failures SET failures = failures - 1 WHERE address = '127.0.0.1' AND minute = date_trunc('minute', now())`);
  });

  it(`answer 429 to everyone after ${PAIRING_FAILURES_PER_MINUTE} failed attempts on the server in a minute`, async () => {
    const { code } = await createPairingCode(proxied.ctx, orgId);
    // Failures from many addresses, written directly: making them over HTTP would hold pairing
    // for every test file sharing this database for as long.
    const tag = `198.18.${Math.floor(Math.random() * 250)}`;
    await awayFromMinuteEnd(app);
    await app.ctx.db.query(
      `INSERT INTO pairing_failures (minute, address, failures)
       SELECT date_trunc('minute', now()), $1 || '.' || g, 1 FROM generate_series(1, $2::int) g`,
      [tag, PAIRING_FAILURES_PER_MINUTE],
    );
    try {
      expectError(await proxied.request('POST', '/device/v1/pair', { body: { code }, headers: { 'x-forwarded-for': '203.0.113.250' } }), 429, 'rate_limited', /on this server/);
    } finally {
      await app.ctx.db.query(`DELETE FROM pairing_failures WHERE address LIKE $1 || '.%'`, [tag]);
    }
    expect((await proxied.request('POST', '/device/v1/pair', { body: { code }, headers: { 'x-forwarded-for': '203.0.113.250' } })).status).toBe(200);
  });
});
