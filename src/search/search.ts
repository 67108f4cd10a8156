import type { AppContext } from '../context/app-context.js';
import { MESSAGE_COLUMNS, toMessage, type MessageRow } from '../messages/message.js';
import { normalizeRecipient } from '../messages/recipients.js';
import { findOrganization } from '../orgs/org-store.js';
import { errors } from '../errors/errors.js';
import { selectIncomingWhere, toIncomingMessage } from '../incoming/incoming-row.js';

/** Matches past this are not read: a search names a few rows, it does not page a word found in every message. */
export const SEARCH_LIMIT = 50;

/** `%` and `_` typed by the person are themselves, not patterns. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The digits of a number typed in part (`345 67`, `+261 34`), for a match inside stored E.164 numbers. */
const digitsOf = (q: string) => (/^[+\d\s().-]+$/.test(q) ? q.replace(/\D/g, '') : '');

/**
 * Messages of the organization whose id is the text, whose recipient is the number (read with
 * the default country, as a send reads it) or holds its digits, or whose body holds the text;
 * newest first. The trigram index (migration 035) answers the parts; at least 3 characters.
 */
export async function searchMessages(ctx: AppContext, orgId: string, q: string) {
  const org = await findOrganization(ctx.db, orgId);
  if (!org) throw errors.notFound('organization');
  const number = normalizeRecipient(q, org.defaultCountry);
  const digits = digitsOf(q);
  const { rows } = await ctx.db.query(
    `SELECT ${MESSAGE_COLUMNS} FROM messages
      WHERE org_id = $1 AND (id = $2 OR to_number = $3 OR body ILIKE $4 OR ($5 <> '' AND to_number LIKE $6))
      ORDER BY id DESC LIMIT $7`,
    [orgId, q, number, likePattern(q), digits, `%${digits}%`, SEARCH_LIMIT],
  );
  return (rows as MessageRow[]).map(toMessage);
}

/** Received SMS whose id is the text, whose sender is the number or holds its digits or name (`MVola`), or whose body holds the text. */
export async function searchIncoming(ctx: AppContext, orgId: string, q: string) {
  const org = await findOrganization(ctx.db, orgId);
  if (!org) throw errors.notFound('organization');
  const number = normalizeRecipient(q, org.defaultCountry);
  const digits = digitsOf(q);
  const rows = await selectIncomingWhere(
    ctx.db,
    `i.org_id = $1 AND (i.id = $2 OR i.from_number = $3 OR i.body ILIKE $4 OR i.from_number ILIKE $4 OR ($5 <> '' AND i.from_number LIKE $6)) ORDER BY i.id DESC LIMIT $7`,
    [orgId, q, number, likePattern(q), digits, `%${digits}%`, SEARCH_LIMIT],
  );
  return rows.map(toIncomingMessage);
}
