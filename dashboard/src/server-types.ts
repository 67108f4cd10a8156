/**
 * What the server answers, typed by the server itself: the static types of its typebox schemas
 * (the /v1 resources) and the types its dashboard routes build their answers from. Type-only
 * imports: none of this code reaches the bundle. Pages import these names from here, so that a
 * server file that moves changes one line of the dashboard.
 */
import type { Static } from '@sinclair/typebox';
import type { DeviceSendWindowsSchema } from '../../src/org-settings/send-window-routes.ts';
import type { MembershipView } from '../../src/members/sql/select-members-of.ts';
import type { Organization } from '../../src/orgs/org-store.ts';
import type { optOutSettingsView } from '../../src/opt-outs/settings.ts';
import type { Carrier } from '../../src/orgs/carriers.ts';
import type { WebhookDelivery } from '../../src/webhooks/schemas.ts';
import type { LoggedAttempt } from '../../src/webhooks/delivery-row.ts';
import type { conversation } from '../../src/conversations/conversation.ts';
import type { messageStats, overview } from '../../src/overview/overview.ts';
import type { keyView } from '../../src/api-keys/routes.ts';
import type { pacingOf } from '../../src/devices/pacing-routes.ts';

export type { Message, MessageEvent } from '../../src/messages/message.ts';
export type { Device } from '../../src/devices/schemas.ts';
export type { IncomingMessage } from '../../src/incoming/schemas.ts';
export type { MobileMoneyEvent } from '../../src/mobile-money/schemas.ts';
export type { WebhookEndpoint } from '../../src/webhooks/schemas.ts';
export type { MessageWebhookEvent } from '../../src/webhooks/sql/select-message-webhook-events.ts';
export type { OptOut } from '../../src/opt-outs/opt-out-row.ts';
export type { SendWindows } from '../../src/send-windows/windows.ts';
export type { Me } from '../../src/members/me.ts';
export type { Role } from '../../src/auth/principal.ts';
export type { LinkKind } from '../../src/members/links.ts';
export type { Carrier, LoggedAttempt, WebhookDelivery };

/** A server value as its JSON reads: a Date is the ISO string JSON.stringify writes. */
export type Wire<T> = T extends Date ? string : T extends readonly (infer E)[] ? Wire<E>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;

/** GET /v1/devices/{id}/send-windows. */
export type PhoneWindows = Static<typeof DeviceSendWindowsSchema>;
/** GET /dashboard/v1/overview and /dashboard/v1/stats/messages. */
export type OverviewFigures = Wire<Awaited<ReturnType<typeof overview>>>;
export type MessageStats = Wire<Awaited<ReturnType<typeof messageStats>>>;
/** GET /dashboard/v1/conversation. */
export type Thread = Awaited<ReturnType<typeof conversation>>;
/** An entry of GET /dashboard/v1/keys. */
export type ApiKey = Wire<ReturnType<typeof keyView>>;
/** GET /dashboard/v1/devices/{id}/pacing. */
export type Pacing = Awaited<ReturnType<typeof pacingOf>>;
/** An entry of GET /dashboard/v1/members. */
export type Member = Wire<MembershipView>;

/** GET (and PATCH) /dashboard/v1/organization: its settings as the API shows them. */
export type OrganizationView = Wire<
  Pick<Organization, 'id' | 'name' | 'defaultCountry' | 'dailyLimit' | 'retentionDays' | 'aiConsent' | 'sendWindows' | 'webhookPrivateTargets' | 'webhookPlainHttp' | 'updatedAt'>
> & {
  autoResend: { attempts: number; failureCodes: readonly string[] };
  carriers: Carrier[];
  carriersAreDefault: boolean;
  optOut: ReturnType<typeof optOutSettingsView>;
};

/** GET /dashboard/v1/webhooks/{endpointId}/deliveries/{deliveryId}: the request a delivery sends and its last 10 attempts, newest first. */
export interface InspectedDelivery {
  delivery: WebhookDelivery;
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  attempts: LoggedAttempt[];
}
