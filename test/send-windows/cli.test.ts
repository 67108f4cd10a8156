import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, uniqueName, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { cliRunner } from '../support/cli.js';
import { testDatabaseUrl } from '../support/database.js';
import { formatSendWindowsText, parseSendWindowsText } from '../../src/send-windows/text.js';

const prefix = `cli${randomBytes(4).toString('hex')}`;
const { hafatra, json } = cliRunner({ DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: prefix, LOG_LEVEL: 'silent' });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ redisPrefix: prefix });
});
afterAll(() => app.close());

describe('send windows as typed', () => {
  it('reads runs and lists of days (a run may wrap round the weekend), several ranges and the time zone, and writes them back the same way', () => {
    expect(parseSendWindowsText('fri-mon 22:00-06:00 sat,wed 09:00-12:00 America/New_York')).toEqual({
      timeZone: 'America/New_York',
      ranges: [
        { days: ['mon', 'fri', 'sat', 'sun'], from: '22:00', to: '06:00' },
        { days: ['wed', 'sat'], from: '09:00', to: '12:00' },
      ],
    });
    expect(formatSendWindowsText(parseSendWindowsText(' MON-FRI 08:00-20:00   Indian/Antananarivo '))).toBe('mon-fri 08:00-20:00 Indian/Antananarivo');
    expect(formatSendWindowsText(parseSendWindowsText('mon,tue,thu-sun 00:00-24:00 UTC'))).toBe('mon,tue,thu-sun 00:00-24:00 UTC');
    expect(parseSendWindowsText('none')).toBeNull();
    expect(parseSendWindowsText('')).toBeNull();
  });
});

describe('hafatra org and device --send-window', () => {
  it("sets the organization's windows into its phones' dispatch state, prints them as typed, and removes them with none", async () => {
    const name = uniqueName('windows');
    const created = await json('org', 'create', '--name', name, '--send-window', 'mon-fri 08:00-20:00 sat 09:00-12:00 indian/antananarivo');
    expect(created.sendWindows).toEqual({
      timeZone: 'Indian/Antananarivo',
      ranges: [
        { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '20:00' },
        { days: ['sat'], from: '09:00', to: '12:00' },
      ],
    });
    const deviceId = await insertTestDevice(app.ctx, created.id);
    const printed = await hafatra('org', 'update', name, '--send-window', 'mon-fri 07:00-19:00 Indian/Antananarivo');
    expect(printed.stdout).toMatch(/^sendWindows: mon-fri 07:00-19:00 Indian\/Antananarivo$/m);
    expect(await app.ctx.redis.hget(app.ctx.keys.org(created.id).deviceState(deviceId), 'open')).toMatch(/^\d+-\d+\|\d+-\d+/);
    expect((await json('org', 'update', name, '--send-window', 'none')).sendWindows).toBeNull();
    expect(await app.ctx.redis.hget(app.ctx.keys.org(created.id).deviceState(deviceId), 'open')).toBe('');
  });

  it("sets a phone's own windows, shown beside the Device", async () => {
    const org = await json('org', 'create', '--name', uniqueName('phone-windows'));
    const deviceId = await insertTestDevice(app.ctx, org.id);
    expect((await json('device', 'update', deviceId, '--send-window', 'sat,sun 22:00-06:00 Europe/Paris')).sendWindows).toEqual({
      timeZone: 'Europe/Paris',
      ranges: [{ days: ['sat', 'sun'], from: '22:00', to: '06:00' }],
    });
    expect((await hafatra('device', 'update', deviceId, '--send-window', 'none')).stdout).toMatch(/^sendWindows: none$/m);
    expect((await app.ctx.db.query('SELECT send_windows FROM devices WHERE id = $1', [deviceId])).rows[0].send_windows).toBeNull();
  });

  it.each([
    [['org', 'create', '--name', 'x', '--send-window', 'mon-fri 8-20 UTC'], /--send-window: 8-20: times are HH:MM-HH:MM/],
    [['org', 'create', '--name', 'x', '--send-window', 'mon-fri 08:00-20:00 Mars/Olympus'], /--send-window: sendWindows\.timeZone: Mars\/Olympus is not a time zone/],
    [['org', 'create', '--name', 'x', '--send-window', 'funday 08:00-20:00 UTC'], /--send-window: funday: days are mon … sun/],
    [['org', 'create', '--name', 'x', '--send-window', '08:00-20:00 UTC'], /--send-window: write it as days, times, then the time zone/],
    [['org', 'create', '--name', 'x', '--send-window', 'mon 10:00-10:00 UTC'], /--send-window: sendWindows\.ranges\[0\]\.to: must differ from from/],
    [['device', 'update', 'dev_nothere', '--send-window', 'mon 25:00-26:00 UTC'], /--send-window: sendWindows\.ranges\[0\]\.from: must be a time HH:MM from 00:00 to 23:59/],
  ])('exits 2 with a clear message for %j, changing nothing', async (args, message) => {
    const res = await hafatra(...args);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });
});
