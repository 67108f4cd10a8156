import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { UsageError, type CommandArgs } from '../../src/cli/command.js';
import { deviceCommands } from '../../src/cli/commands/device.js';
import { heartbeat, pairPhone, startDevicesApp } from './support.js';

let app: TestApp;
let orgName: string;
let orgId: string;

beforeAll(async () => {
  app = await startDevicesApp();
  const made = await app.createOrg();
  ({ id: orgId, name: orgName } = made.org);
});
afterAll(() => app.close());

async function run(name: string, positionals: string[], values: CommandArgs['values'], json = true) {
  const command = deviceCommands.find((c) => c.path.join(' ') === `device ${name}`)!;
  const out: string[] = [];
  const code = await command.run({ values, positionals, json }, { out: (l) => out.push(l), err: () => undefined }, async () => app.ctx);
  return { code, text: out.join('\n') };
}

describe('hafatra device', () => {
  it('pair prints a code that pairs a phone, with the server URL and the QR payload', async () => {
    const { code, text } = await run('pair', [], { org: orgName, name: 'Till', url: 'https://sms.example.org' });
    expect(code).toBe(0);
    const printed = JSON.parse(text);
    expect(printed).toMatchObject({ server: 'https://sms.example.org', organization: orgName, mobileApiUrl: 'https://sms.example.org/mobile/v1' });
    expect(JSON.parse(printed.qrPayload)).toEqual({ hafatra: 'pair', v: 1, server: 'https://sms.example.org', code: printed.code });
    const res = await app.request('POST', '/device/v1/pair', { body: { code: printed.code } });
    expect(res.status).toBe(200);
    const listed = JSON.parse((await run('list', [], { org: orgName })).text);
    expect(listed).toContainEqual(expect.objectContaining({ id: res.body.deviceId, name: 'Till', status: 'never_seen' }));
  });

  it('pair without --json shows the code and a terminal QR code', async () => {
    const { text } = await run('pair', [], { org: orgName }, false);
    expect(text).toMatch(/Pairing code: [0-9A-Z]{4}-[0-9A-Z]{4}/);
    expect(text).toMatch(/Server: +http:\/\/[^ ]+:\d+/);
    expect(text).toMatch(/[▀▄█]/);
    // SMS Gateway for Android's two settings, with the same code.
    const code = /Pairing code: (\S+)/.exec(text)![1];
    expect(text).toMatch(new RegExp(`API URL http://[^ ]+:\\d+/mobile/v1, Private Token ${code}`));
  });

  it("update sets pacing and the SIM daily cap into the dispatch state, within Android's 30 a minute", async () => {
    const phone = await pairPhone(app, orgId);
    await run('update', [phone.deviceId], { pacing: '20', 'sim-daily-cap': '200', draining: 'yes' });
    const state = () => app.ctx.redis.hgetall(app.ctx.keys.org(orgId).deviceState(phone.deviceId));
    expect(await state()).toMatchObject({ pace: '20', simCap: '200', draining: '1' });
    await run('update', [phone.deviceId], { pacing: 'default', 'sim-daily-cap': 'none' });
    expect(await state()).toMatchObject({ pace: String(app.ctx.config.pacingPerMinute), simCap: '0' });
    await expect(run('update', [phone.deviceId], { pacing: '31' })).rejects.toThrow(UsageError);
    await expect(run('update', ['dev_nope'], { name: 'x' })).rejects.toThrow(/no device/);
  });

  it('revoke ends the token and records the reason', async () => {
    const phone = await pairPhone(app, orgId);
    const { text } = await run('revoke', [phone.deviceId], { reason: 'phone stolen' });
    expect(JSON.parse(text)).toMatchObject({ id: phone.deviceId, status: 'revoked', revokedReason: 'phone stolen' });
    expect((await heartbeat(app, phone.token, {})).status).toBe(401);
  });
});
