import qrcode from 'qrcode-terminal';
import { orgOf } from '../org-option.js';
import { UsageError, optionalInt, printObject, printRows, type Command, type CommandArgs, type CommandIo } from '../command.js';
import type { AppContext } from '../../context/app-context.js';
import { createPairingCode, PAIRING_CODE_TTL_SECONDS } from '../../devices/pairing.js';
import { pairingQrPayload, serverUrlHint } from '../../devices/pairing-payload.js';
import { listDevices } from '../../devices/device-view.js';
import { findDeviceOrg } from '../../devices/sql/find-device-org.js';
import { revokeDevice } from '../../devices/revoke-device.js';
import { updateDevice, type DeviceChanges } from '../../devices/update-device.js';
import type { Device } from '../../devices/schemas.js';
import { sendWindowsOption } from '../../devices/send-window-settings.js';
import { formatSendWindowsText } from '../../send-windows/text.js';

const COLUMNS = ['id', 'name', 'status', 'lastSeenAt', 'battery', 'sims', 'queueDepth', 'outbound', 'inbound', 'revokedAt'];

async function deviceOrg(ctx: AppContext, args: CommandArgs): Promise<{ orgId: string; deviceId: string }> {
  const deviceId = args.positionals[0];
  if (!deviceId) throw new UsageError('name the device id (dev_…)');
  const orgId = await findDeviceOrg(ctx.db, deviceId);
  if (!orgId) throw new UsageError(`no device ${deviceId}`);
  return { orgId, deviceId };
}

/** One line per phone for the table; --json prints the API's Device objects. */
function row(d: Device): Record<string, unknown> {
  return {
    ...d,
    battery: d.battery.percent === null ? null : `${d.battery.percent}%${d.battery.charging ? '+' : ''}`,
    sims: d.sims.filter((s) => !s.removedAt).map((s) => `${s.subscriptionId}:${s.carrierName ?? '?'}`),
    outbound: d.draining ? 'draining' : d.outboundEnabled ? 'on' : 'off',
    inbound: d.inbound.state === 'unlocked' ? 'unlocked' : `locked (${d.inbound.reason})`,
  };
}

function printDevice(io: CommandIo, json: boolean, d: Device): void {
  if (json) io.out(JSON.stringify(d, null, 2));
  else printObject(io, false, row(d));
}

const qr = (text: string) => new Promise<string>((resolve) => qrcode.generate(text, { small: true }, resolve));

const yesNo = (args: CommandArgs, name: string): boolean | undefined => {
  const v = args.values[name];
  if (v === undefined) return undefined;
  if (v !== 'yes' && v !== 'no') throw new UsageError(`--${name} must be yes or no`);
  return v === 'yes';
};

/** An integer option that also takes a word meaning "no value" (default, none). */
function intOrNull(args: CommandArgs, name: string, nullWord: string, min: number, max: number): number | null | undefined {
  if (args.values[name] === nullWord) return null;
  return optionalInt(args, name, min, max);
}

function changesFrom(args: CommandArgs): DeviceChanges {
  const name = args.values.name;
  if (name !== undefined && (typeof name !== 'string' || name.length < 1 || name.length > 128)) throw new UsageError('--name takes 1 to 128 characters');
  return {
    name: name as string | undefined,
    draining: yesNo(args, 'draining'),
    outboundEnabled: yesNo(args, 'outbound'),
    defaultSimSubscriptionId: intOrNull(args, 'default-sim', 'none', 0, 2_147_483_647),
    // Android refuses an app more than 30 SMS a minute: pacing above it would only produce failures.
    pacingPerMinute: intOrNull(args, 'pacing', 'default', 1, 30),
    simDailyCap: intOrNull(args, 'sim-daily-cap', 'none', 1, 1_000_000),
    // The phone's own windows, within its organization's (none: its organization's alone).
    sendWindows: sendWindowsOption(args.values['send-window'], (m) => new UsageError(m)),
  };
}

export const deviceCommands: Command[] = [
  {
    path: ['device', 'pair'],
    summary: 'Print a one-time pairing code (10 minutes) and its QR code for the phone app',
    usage: 'hafatra device pair [--org default] [--name NAME] [--url http://server:3000] [--json]',
    options: { org: { type: 'string' }, name: { type: 'string' }, url: { type: 'string' } },
    async run(args, io, services) {
      const name = args.values.name;
      if (name !== undefined && (typeof name !== 'string' || name.length < 1 || name.length > 128)) throw new UsageError('--name takes 1 to 128 characters');
      const ctx = await services();
      const org = await orgOf(ctx, args);
      const { code, expiresAt } = await createPairingCode(ctx, org.id, name as string | undefined);
      const server = typeof args.values.url === 'string' ? args.values.url : serverUrlHint(ctx.config);
      const payload = pairingQrPayload(server, code);
      if (args.json) {
        io.out(JSON.stringify({ code, expiresAt: expiresAt.toISOString(), server, organization: org.name, qrPayload: payload, mobileApiUrl: `${server}/mobile/v1` }, null, 2));
        return 0;
      }
      io.out(`Pairing code: ${code}   (organization ${org.name}; single use; valid ${PAIRING_CODE_TTL_SECONDS / 60} minutes, until ${expiresAt.toISOString()})`);
      io.out(`Server:       ${server}   (pass --url if phones reach the server at another address)`);
      io.out('');
      io.out(await qr(payload));
      io.out('In the Hafatra app, scan this code, or type the server address and the pairing code.');
      // SMS Gateway for Android (docs/android-app.md): Settings → Cloud server.
      io.out(`SMS Gateway for Android: API URL ${server}/mobile/v1, Private Token ${code}, notification channel SSE only.`);
      return 0;
    },
  },
  {
    path: ['device', 'list'],
    summary: "List an organization's phones (revoked ones too)",
    usage: 'hafatra device list [--org default] [--json]',
    options: { org: { type: 'string' } },
    async run(args, io, services) {
      const ctx = await services();
      const devices = await listDevices(ctx, (await orgOf(ctx, args)).id);
      if (args.json) io.out(JSON.stringify(devices, null, 2));
      else printRows(io, false, devices.map(row), COLUMNS);
      return 0;
    },
  },
  {
    path: ['device', 'update'],
    summary: 'Rename, drain or pause a phone; set its default SIM, pacing and own send windows',
    usage:
      'hafatra device update DEVICE_ID [--name N] [--draining yes|no] [--outbound yes|no] [--default-sim N|none] [--pacing 1..30|default] [--sim-daily-cap N|none] [--send-window "mon-fri 08:00-20:00 Indian/Antananarivo"|none] [--json]',
    options: {
      name: { type: 'string' },
      draining: { type: 'string' },
      outbound: { type: 'string' },
      'default-sim': { type: 'string' },
      pacing: { type: 'string' },
      'sim-daily-cap': { type: 'string' },
      'send-window': { type: 'string' },
    },
    async run(args, io, services) {
      const changes = changesFrom(args);
      const ctx = await services();
      const { orgId, deviceId } = await deviceOrg(ctx, args);
      const device = await updateDevice(ctx, orgId, deviceId, changes);
      // The phone's own windows are not a field of the spec's Device: printed beside it when set.
      const windows = changes.sendWindows;
      if (windows === undefined) printDevice(io, args.json, device);
      else if (args.json) io.out(JSON.stringify({ ...device, sendWindows: windows }, null, 2));
      else printObject(io, false, { ...row(device), sendWindows: formatSendWindowsText(windows) });
      return 0;
    },
  },
  {
    path: ['device', 'revoke'],
    summary: 'Revoke a phone: its token stops working at once, its socket is closed',
    usage: 'hafatra device revoke DEVICE_ID [--reason TEXT] [--json]',
    options: { reason: { type: 'string' } },
    async run(args, io, services) {
      const ctx = await services();
      const { orgId, deviceId } = await deviceOrg(ctx, args);
      const reason = typeof args.values.reason === 'string' && args.values.reason ? args.values.reason : 'revoked with the CLI';
      printDevice(io, args.json, (await revokeDevice(ctx, orgId, deviceId, reason))!);
      return 0;
    },
  },
];
