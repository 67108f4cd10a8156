import { Type } from '@sinclair/typebox';
import { isSupportedCountry } from 'libphonenumber-js/max';
import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { Int, Nullable, Text } from '../schemas/schema-kit.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Organization } from '../orgs/org-store.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import { updateOrganization } from '../orgs/sql/update-organization.js';
import { AutoResendSetting, DEFAULT_RESEND_CODES, neverResentCode } from '../sending/auto-resend/policy.js';
import { CarriersSchema, carriersOf, carriersProblem } from '../orgs/carriers.js';
import { syncOrgDeviceStates } from '../dispatch-queue/device-state.js';
import { keywordsOfSettings, OptOutSetting, optOutSettingsView } from '../opt-outs/settings.js';
import { selectOptOutSettings } from '../opt-outs/sql/select-opt-out-settings.js';
import { updateOptOutSettings } from '../opt-outs/sql/update-opt-out-settings.js';
import { wordsProblem } from '../opt-outs/keywords.js';
import { SendWindowsSetting } from '../send-windows/windows.js';
import { checkedSendWindows, orgSendWindowsChanged } from '../devices/send-window-settings.js';
import { updateOrgSendWindows } from '../send-windows/sql/update-org-send-windows.js';
import { MAX_PRIVATE_TARGETS, normalisePrivateTargets } from '../webhooks/delivery/private-targets.js';

// The bounds are the organizations table's CHECK constraints (migration 001).
const UpdateOrganizationBody = Type.Object(
  {
    name: Type.Optional(Text({ minLength: 1, maxLength: 128 })),
    defaultCountry: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', errorMessage: 'must be a two-letter country code such as MG' })),
    dailyLimit: Type.Optional(Int('integer', { minimum: 1, maximum: 100_000 })),
    retentionDays: Type.Optional(Int('integer', { minimum: 1, maximum: 3650 })),
    aiConsent: Type.Optional(Type.Boolean()),
    /** Beyond the spec (docs/decisions.md, "Automatic resend"). */
    autoResend: Type.Optional(AutoResendSetting),
    /** The networks for carrier-aware routing; null: back to the default (Madagascar's). */
    carriers: Type.Optional(Nullable(CarriersSchema)),
    /** Stop and start words and their replies (docs/decisions.md, "Opt-outs"). */
    optOut: Type.Optional(OptOutSetting),
    /** Beyond the spec (docs/decisions.md, "Send windows"): when phones send; null: at any hour. */
    sendWindows: Type.Optional(SendWindowsSetting),
    /** Private webhook targets allowed (docs/webhooks.md, "Private targets"): host names, IP addresses, CIDR ranges; [] for none. */
    webhookPrivateTargets: Type.Optional(Type.Array(Text({ minLength: 1, maxLength: 253 }), { maxItems: MAX_PRIVATE_TARGETS })),
    /** Plain http to the LAN private targets (loopback ones never need TLS). */
    webhookPlainHttp: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const settingsView = (o: Organization) => ({
  id: o.id,
  name: o.name,
  defaultCountry: o.defaultCountry,
  dailyLimit: o.dailyLimit,
  retentionDays: o.retentionDays,
  aiConsent: o.aiConsent,
  autoResend: { attempts: o.autoResendAttempts, failureCodes: o.autoResendCodes ?? DEFAULT_RESEND_CODES },
  carriers: carriersOf(o.carriers),
  carriersAreDefault: o.carriers === null,
  sendWindows: o.sendWindows,
  webhookPrivateTargets: o.webhookPrivateTargets,
  webhookPlainHttp: o.webhookPlainHttp,
  updatedAt: o.updatedAt,
});

async function optOutView(ctx: AppContext, orgId: string) {
  const s = await selectOptOutSettings(ctx.db, orgId);
  if (!s) throw errors.notFound('organization');
  return optOutSettingsView(s);
}

/** The organization's settings: everyone reads them, owners change them. */
export function organizationRoutes(ctx: AppContext): AnyRoute[] {
  return [
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/organization',
      auth: { role: 'viewer' },
      summary: "The organization's settings",
      handler: async (req) => {
        const org = await findOrganization(ctx.db, req.principal.orgId);
        if (!org) throw errors.notFound('organization');
        return { status: 200, body: { ...settingsView(org), optOut: await optOutView(ctx, org.id) } };
      },
    }),
    memberRoute({
      method: 'patch',
      path: '/dashboard/v1/organization',
      auth: { role: 'owner' },
      body: UpdateOrganizationBody,
      clientAddress: true,
      summary: 'Change the default country, daily limit, retention of received SMS, AI consent, automatic resend, carriers, opt-out words and replies, send windows or private webhook targets',
      handler: async (req) => {
        if (req.body.defaultCountry !== undefined && !isSupportedCountry(req.body.defaultCountry)) {
          throw errors.invalid(`defaultCountry: ${req.body.defaultCountry} is not a country with phone numbers we know`);
        }
        const never = neverResentCode(req.body.autoResend?.failureCodes);
        if (never) throw errors.invalid(`autoResend.failureCodes: ${never} is never resent (a resend could only fail the same way, or send what must not be sent)`);
        const carriersWrong = req.body.carriers ? carriersProblem(req.body.carriers) : null;
        if (carriersWrong) throw errors.invalid(carriersWrong);
        const { optOut } = req.body;
        if (optOut) {
          const current = await selectOptOutSettings(ctx.db, req.principal.orgId);
          const wrong = current && wordsProblem(optOut.stopWords, optOut.startWords, keywordsOfSettings(current));
          if (wrong) throw errors.invalid(wrong);
        }
        const targets = req.body.webhookPrivateTargets && normalisePrivateTargets(req.body.webhookPrivateTargets);
        if (targets && !targets.ok) throw errors.invalid(`webhookPrivateTargets: ${targets.problem}`);
        const { sendWindows: givenWindows, ...given } = req.body;
        const settings = targets ? { ...given, webhookPrivateTargets: targets.targets } : given;
        const sendWindows = givenWindows === undefined ? undefined : checkedSendWindows(givenWindows, 'sendWindows');
        const org = await updateOrganization(ctx.db, req.principal.orgId, settings).catch((err: { code?: string }) => {
          if (err.code === '23505') throw errors.conflict('name: another organization has this name');
          throw err;
        });
        if (!org) throw errors.notFound('organization');
        // The phones' dispatch states hold the prefix table and their SIMs' networks.
        if (req.body.carriers !== undefined) await syncOrgDeviceStates(ctx, org.id);
        if (optOut) await updateOptOutSettings(ctx.db, org.id, optOut);
        // Send windows: their own statement, then the phones' open times anew (src/send-windows).
        if (sendWindows !== undefined) {
          await updateOrgSendWindows(ctx.db, org.id, sendWindows);
          org.sendWindows = sendWindows;
          await orgSendWindowsChanged(ctx, org.id);
        }
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'organization.updated', target: org.id, detail: { ...req.body } });
        return { status: 200, body: { ...settingsView(org), optOut: await optOutView(ctx, org.id) } };
      },
    }),
  ];
}
