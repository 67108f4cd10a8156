import type { AppContext } from '../context/app-context.js';
import type { StatusReportWriter } from '../dispatch/status-reports.js';
import type { AppDevice } from './authenticate-app.js';
import { errors } from '../errors/errors.js';
import { compileValidator } from '../schemas/validation.js';
import { recordHeartbeat } from '../devices/heartbeat.js';
import type { Heartbeat } from '../devices/schemas.js';
import { recordIncoming } from '../incoming/record-incoming.js';
import { AppSimCard } from './schemas.js';
import { appSimsToReported } from './app-sims.js';
import { parseAppDate } from './app-dates.js';
import { Type } from '@sinclair/typebox';
import { PingPayload, SmsReceivedPayload, SmsStatusPayload, type WebhookEnvelope } from './webhook-events.js';
import { applyStatusEvent } from './status-events.js';

const smsReceived = compileValidator(SmsReceivedPayload);
const smsStatus = compileValidator(SmsStatusPayload);
const ping = compileValidator(PingPayload);
const appStarted = compileValidator(Type.Object({ simCards: Type.Array(AppSimCard, { maxItems: 16 }) }));

/** What a webhook did, for the access log and tests. */
export type WebhookOutcome = 'stored' | 'applied' | 'ignored';

/**
 * A verified webhook of a mobile phone, fed to the paths a native phone's reports take. Each is
 * safe to receive twice (the app retries until a 2xx, and may post one event to several of our
 * URLs): a received SMS is stored under the event's id, which the app keeps across retries;
 * status events go through the status-report path, where a repeat changes nothing; the others
 * restate the phone's condition.
 */
export async function receiveWebhook(ctx: AppContext, writer: StatusReportWriter, principal: AppDevice, envelope: WebhookEnvelope): Promise<WebhookOutcome> {
  switch (envelope.event) {
    case 'sms:received': {
      const p = smsReceived.check(envelope.payload, 'payload') as SmsReceivedPayload;
      await recordIncoming(ctx, principal, {
        clientId: envelope.id,
        from: p.sender,
        body: p.message,
        // The SMSC's time, in the phone's zone; one the server cannot read is replaced by its own.
        receivedAt: parseAppDate(p.receivedAt)?.toISOString() ?? new Date().toISOString(),
        // A mobile phone's SIMs are keyed by slot (app-sims.ts).
        ...(p.simNumber === undefined ? {} : { simSubscriptionId: p.simNumber - 1 }),
      });
      return 'stored';
    }
    case 'sms:sent':
    case 'sms:delivered':
    case 'sms:failed': {
      const p = smsStatus.check(envelope.payload, 'payload') as SmsStatusPayload;
      await applyStatusEvent(ctx, writer, principal, envelope.event, p);
      return 'applied';
    }
    case 'system:ping': {
      const p = ping.check(envelope.payload, 'payload') as PingPayload;
      await recordHeartbeat(ctx, principal, heartbeatOf(p));
      return 'applied';
    }
    case 'app:started': {
      const p = appStarted.check(envelope.payload, 'payload') as { simCards: AppSimCard[] };
      // Unredacted here, unlike registration's: the numbers and carriers are stored.
      await recordHeartbeat(ctx, principal, { sims: appSimsToReported(p.simCards) });
      return 'applied';
    }
    default:
      // An event Hafatra does not list (sms:cancelled, mms:*): acknowledged, so the phone stops retrying.
      return 'ignored';
  }
}

const CELLULAR = ['none', 'unknown', '2g', '3g', '4g', '5g'];

/**
 * A ping's health as a heartbeat. The battery feeds the resting-phone rule. The connection is
 * shown, not rested on: a ping reporting no connection was queued while offline and arrives once
 * the phone is back (the app waits for connectivity), so it says nothing of the phone now.
 */
export function heartbeatOf(p: PingPayload): Heartbeat {
  const checks = p.health.checks ?? {};
  const level = checks['battery:level']?.observedValue;
  const charging = checks['battery:charging']?.observedValue;
  const cellular = checks['connection:cellular']?.observedValue;
  const hb: Heartbeat = {};
  if (level !== undefined) {
    hb.battery = {
      percent: Math.max(0, Math.min(100, Math.round(level))),
      // Android's plugged flags (AC, USB, wireless): any is charging.
      charging: charging === undefined ? null : charging !== 0,
    };
  }
  if (checks['connection:status']?.observedValue !== 0 && cellular !== undefined && CELLULAR[cellular] && cellular >= 2) hb.networkType = CELLULAR[cellular];
  return hb;
}

export const unverified = () => errors.unauthorized('webhook signature missing, stale or wrong: sync the settings (the signing key) and retry');
