import { appDate } from './app-dates.js';
import { simNumberOf } from './app-sims.js';
import type { HeldMessage } from './sql/select-held-messages.js';

/** An item of `GET /message` (smsgate-mobile-protocol.md §5.1). */
export interface AppMessage {
  id: string;
  message: string;
  textMessage: { text: string };
  phoneNumbers: string[];
  simNumber?: number;
  withDeliveryReport: boolean;
  isEncrypted: boolean;
  priority: number;
  validUntil: string;
  createdAt: string;
  state?: 'Pending' | 'Cancelling';
}

/** At or above this the app expedites a message (it skips the app's own delay and cap). */
export const EXPEDITED_PRIORITY = 100;

/**
 * One Hafatra message, one recipient. The text goes both as `textMessage` and as the legacy
 * `message` (apps before 1.39.1 read only that). `state` only for apps that understand it
 * (1.67.0+); older ones would send a `Cancelling` item, so they are never given one.
 */
export function toAppMessage(m: HeldMessage, withState: boolean): AppMessage {
  const sim = simNumberOf(m.simSubscriptionId);
  return {
    id: m.id,
    message: m.body,
    textMessage: { text: m.body },
    phoneNumbers: [m.to],
    ...(sim === undefined ? {} : { simNumber: sim }),
    withDeliveryReport: true,
    isEncrypted: false,
    priority: m.priority > 0 ? EXPEDITED_PRIORITY : 0,
    validUntil: appDate(m.expiresAt),
    createdAt: appDate(m.createdAt),
    ...(withState ? { state: m.cancelling ? ('Cancelling' as const) : ('Pending' as const) } : {}),
  };
}
