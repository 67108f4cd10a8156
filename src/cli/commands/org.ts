import { UsageError, optionalInt, printObject, printRows, requireString, type Command, type CommandArgs } from '../command.js';
import type { OrganizationSettings } from '../../orgs/org-store.js';
import { findOrganization } from '../../orgs/sql/find-organization.js';
import { insertOrganization } from '../../orgs/sql/insert-organization.js';
import { listOrganizations } from '../../orgs/sql/list-organizations.js';
import { updateOrganization } from '../../orgs/sql/update-organization.js';
import { MAX_AUTO_RESENDS, neverResentCode } from '../../sending/auto-resend/policy.js';
import { carriersInputProblem, type Carrier } from '../../orgs/carriers.js';
import { syncOrgDeviceStates } from '../../dispatch-queue/device-state.js';
import { sendWindowsOption, setOrgSendWindows } from '../../devices/send-window-settings.js';
import { formatSendWindowsText } from '../../send-windows/text.js';
import type { Organization } from '../../orgs/org-store.js';
import { normalisePrivateTargets } from '../../webhooks/delivery/private-targets.js';

/** --webhook-private-targets localhost,192.168.1.0/24, or none. */
function privateTargetsFrom(args: CommandArgs): string[] | undefined {
  const v = args.values['webhook-private-targets'];
  if (typeof v !== 'string') return undefined;
  if (v.trim() === 'none') return [];
  const result = normalisePrivateTargets(v.split(',').filter((entry) => entry.trim() !== ''));
  if (!result.ok) throw new UsageError(`--webhook-private-targets: ${result.problem}`);
  return result.targets;
}

function yesNo(args: CommandArgs, name: string): boolean | undefined {
  const v = args.values[name];
  if (v === undefined) return undefined;
  if (v !== 'yes' && v !== 'no') throw new UsageError(`--${name} must be yes or no`);
  return v === 'yes';
}

const COLUMNS = ['id', 'name', 'defaultCountry', 'dailyLimit', 'retentionDays', 'aiConsent', 'autoResendAttempts', 'createdAt'];
const settingOptions = {
  name: { type: 'string' },
  country: { type: 'string' },
  'daily-limit': { type: 'string' },
  'retention-days': { type: 'string' },
  'ai-consent': { type: 'string' },
  'auto-resend': { type: 'string' },
  'auto-resend-codes': { type: 'string' },
  carriers: { type: 'string' },
  'send-window': { type: 'string' },
  'webhook-private-targets': { type: 'string' },
  'webhook-plain-http': { type: 'string' },
} as const;

const sendWindowFrom = (args: CommandArgs) => sendWindowsOption(args.values['send-window'], (m) => new UsageError(m));

/** The organization as printed: its send windows as typed, unless --json. */
const shown = (o: Organization, json: boolean) => ({ ...o, ...(json ? {} : { sendWindows: formatSendWindowsText(o.sendWindows) }) });

/** `--auto-resend-codes no_service,radio_off`, or `default` for the shipped list. */
function resendCodesFrom(args: CommandArgs): string[] | null | undefined {
  const v = args.values['auto-resend-codes'];
  if (v === undefined) return undefined;
  if (v === 'default') return null;
  const codes = typeof v === 'string' ? v.split(',').map((c) => c.trim()) : [];
  if (codes.length === 0 || codes.some((c) => !/^[a-z][a-z0-9_]{0,63}$/.test(c))) {
    throw new UsageError('--auto-resend-codes must be failure codes separated by commas (e.g. no_service,radio_off), or default');
  }
  const never = neverResentCode(codes);
  if (never) throw new UsageError(`--auto-resend-codes: ${never} is never resent`);
  return [...new Set(codes)];
}

/** --carriers: a JSON list of {name, prefixes, simNames}, or `default` for the shipped table (Madagascar's). */
function carriersFrom(args: CommandArgs): Carrier[] | null | undefined {
  const raw = args.values.carriers;
  if (typeof raw !== 'string') return undefined;
  if (raw === 'default') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new UsageError('--carriers must be JSON, e.g. \'[{"name":"orange","prefixes":["+26132"],"simNames":["orange"]}]\', or default');
  }
  const problem = carriersInputProblem(parsed);
  if (problem) throw new UsageError(`--carriers: ${problem}`);
  return parsed as Carrier[];
}

function settingsFrom(args: CommandArgs): OrganizationSettings {
  const country = args.values.country;
  if (country !== undefined && (typeof country !== 'string' || !/^[A-Za-z]{2}$/.test(country))) {
    throw new UsageError('--country must be a two-letter ISO country code, e.g. MG');
  }
  const ai = yesNo(args, 'ai-consent');
  return {
    name: typeof args.values.name === 'string' ? args.values.name : undefined,
    defaultCountry: typeof country === 'string' ? country.toUpperCase() : undefined,
    dailyLimit: optionalInt(args, 'daily-limit', 1, 100_000),
    retentionDays: optionalInt(args, 'retention-days', 1, 3650),
    aiConsent: ai,
    autoResend: { attempts: optionalInt(args, 'auto-resend', 0, MAX_AUTO_RESENDS), failureCodes: resendCodesFrom(args) },
    carriers: carriersFrom(args),
    webhookPrivateTargets: privateTargetsFrom(args),
    webhookPlainHttp: yesNo(args, 'webhook-plain-http'),
  };
}

export const orgCommands: Command[] = [
  {
    path: ['org', 'create'],
    summary: 'Create an organization',
    usage:
      "hafatra org create --name NAME [--country MG] [--daily-limit 1000] [--retention-days 30] [--ai-consent yes|no] [--auto-resend 0-5] [--auto-resend-codes CODES|default] [--carriers 'JSON'|default] [--send-window 'mon-fri 08:00-20:00 Indian/Antananarivo'|none] [--webhook-private-targets HOSTS|none] [--webhook-plain-http yes|no] [--json]",
    options: settingOptions,
    async run(args, io, services) {
      const name = requireString(args, 'name');
      const windows = sendWindowFrom(args);
      const ctx = await services();
      if (await findOrganization(ctx.db, name)) throw new UsageError(`an organization named ${name} already exists`);
      const org = await insertOrganization(ctx.db, { ...settingsFrom(args), name });
      if (windows !== undefined) org.sendWindows = await setOrgSendWindows(ctx, org.id, windows);
      printObject(io, args.json, shown(org, args.json));
      return 0;
    },
  },
  {
    path: ['org', 'list'],
    summary: 'List organizations',
    usage: 'hafatra org list [--json]',
    async run(args, io, services) {
      const ctx = await services();
      printRows(
        io,
        args.json,
        (await listOrganizations(ctx.db)).map((o) => ({ ...o })),
        COLUMNS,
      );
      return 0;
    },
  },
  {
    path: ['org', 'update'],
    summary: "Change an organization's settings",
    usage:
      "hafatra org update ORG [--name NAME] [--country MG] [--daily-limit N] [--retention-days N] [--ai-consent yes|no] [--auto-resend 0-5] [--auto-resend-codes CODES|default] [--carriers 'JSON'|default] [--send-window 'mon-fri 08:00-20:00 Indian/Antananarivo'|none] [--webhook-private-targets HOSTS|none] [--webhook-plain-http yes|no] [--json]",
    options: settingOptions,
    async run(args, io, services) {
      const ref = args.positionals[0];
      if (!ref) throw new UsageError('name the organization (id or name)');
      // The values are checked first: a mistake in them is said before anything is looked up.
      const settings = settingsFrom(args);
      const windows = sendWindowFrom(args);
      const ctx = await services();
      const org = await findOrganization(ctx.db, ref);
      if (!org) throw new UsageError(`no organization ${ref}`);
      const updated = await updateOrganization(ctx.db, org.id, settings);
      // The phones' dispatch states hold the prefix table and their SIMs' networks.
      if (settings.carriers !== undefined) await syncOrgDeviceStates(ctx, org.id);
      if (windows !== undefined) updated!.sendWindows = await setOrgSendWindows(ctx, org.id, windows);
      printObject(io, args.json, shown(updated!, args.json));
      return 0;
    },
  },
];
