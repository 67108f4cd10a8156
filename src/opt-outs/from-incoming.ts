import type { Queryable } from '../db/pool.js';
import { normalizeRecipient } from '../messages/recipients.js';
import { keywordAction, mayBeKeyword, type KeywordAction } from './keywords.js';
import { keywordsOfSettings, type OptOutSettings } from './settings.js';
import { selectOptOutSettings } from './sql/select-opt-out-settings.js';
import { insertOptOut } from './sql/insert-opt-out.js';
import { deleteOptOut } from './sql/delete-opt-out.js';

/** A number opted out (stop) or back in (start) by the received SMS incomingId. */
export interface OptOutChange {
  number: string;
  action: KeywordAction;
  incomingId: string;
}

export interface OptOutOutcome {
  changes: OptOutChange[];
  /** Read only when some SMS could be a keyword; the replies need it. */
  settings: OptOutSettings | null;
}

/**
 * The stop and start words among newly stored received SMS, applied in the transaction that
 * stores them: the opt-out is durable exactly when the SMS is, and an SMS the phone sends again
 * is not new (store-messages.ts), so it changes nothing twice. In the order received; a sender
 * that is no phone number (an alphanumeric sender id, a short code) cannot opt out. A stop from a
 * number already opted out (or a start from one that is not) changes and records nothing.
 */
export async function applyOptOutWords(tx: Queryable, orgId: string, received: { id: string; from: string; body: string | null }[]): Promise<OptOutOutcome> {
  const candidates = received.filter((r) => mayBeKeyword(r.body));
  if (candidates.length === 0) return { changes: [], settings: null };
  const settings = await selectOptOutSettings(tx, orgId);
  if (!settings) return { changes: [], settings: null };
  const words = keywordsOfSettings(settings);
  const changes: OptOutChange[] = [];
  for (const sms of candidates.sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const action = keywordAction(sms.body!, words);
    if (!action) continue;
    const number = normalizeRecipient(sms.from, settings.defaultCountry);
    if (number === null) continue;
    const cause = { source: 'sms' as const, incomingMessageId: sms.id };
    const changed = action === 'stop' ? (await insertOptOut(tx, orgId, number, cause)).created : (await deleteOptOut(tx, orgId, { number }, cause)) !== undefined;
    if (changed) changes.push({ number, action, incomingId: sms.id });
  }
  return { changes, settings };
}
