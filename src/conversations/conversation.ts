import type { AppContext } from '../context/app-context.js';
import { toMessage, type Message } from '../messages/message.js';
import { normalizeRecipient } from '../messages/recipients.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import { errors } from '../errors/errors.js';
import { toIncomingMessage } from '../incoming/incoming-row.js';
import { selectIncomingWhere } from '../incoming/sql/select-incoming-where.js';
import type { IncomingMessage } from '../incoming/schemas.js';
import { selectSentToNumber } from './sql/select-sent-to-number.js';

/** The newest this many of each side: a thread shows the latest exchange, not a number's whole history. */
export const CONVERSATION_LIMIT = 100;

export type ConversationEntry = { kind: 'sent'; at: string; message: Message } | { kind: 'received'; at: string; sms: IncomingMessage };

/**
 * What was sent to a number and received from it, oldest first: the newest 100 of each, merged
 * by time (a message by its creation, an SMS by when the phone received it). The number is read
 * as a send reads it (default country); each side is one index range (migrations 031, 035).
 */
export async function conversation(ctx: AppContext, orgId: string, input: string): Promise<{ number: string; entries: ConversationEntry[]; more: boolean }> {
  const org = await findOrganization(ctx.db, orgId);
  if (!org) throw errors.notFound('organization');
  const number = normalizeRecipient(input, org.defaultCountry);
  if (!number) throw errors.invalid(`number: not a phone number (read with the default country ${org.defaultCountry})`);
  const [sent, received] = await Promise.all([
    selectSentToNumber(ctx.db, orgId, number, CONVERSATION_LIMIT + 1),
    selectIncomingWhere(ctx.db, 'i.org_id = $1 AND i.from_number = $2 ORDER BY i.id DESC LIMIT $3', [orgId, number, CONVERSATION_LIMIT + 1]),
  ]);
  const more = sent.length > CONVERSATION_LIMIT || received.length > CONVERSATION_LIMIT;
  const entries: ConversationEntry[] = [
    ...sent.slice(0, CONVERSATION_LIMIT).map((r) => {
      const message = toMessage(r);
      return { kind: 'sent' as const, at: message.createdAt, message };
    }),
    ...received.slice(0, CONVERSATION_LIMIT).map((r) => {
      const sms = toIncomingMessage(r);
      return { kind: 'received' as const, at: sms.receivedAt, sms };
    }),
  ];
  entries.sort((a, b) => a.at.localeCompare(b.at));
  return { number, entries, more };
}
