import type { AppContext } from '../context/app-context.js';
import { toMessage } from '../messages/message.js';
import { normalizeRecipient } from '../messages/recipients.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import { errors } from '../errors/errors.js';
import { toIncomingMessage } from '../incoming/incoming-row.js';
import { selectIncomingWhere } from '../incoming/sql/select-incoming-where.js';
import { searchMessageRows } from './sql/search-message-rows.js';

/** Matches past this are not read: a search names a few rows, it does not page a word found in every message. */
export const SEARCH_LIMIT = 50;

/** `%` and `_` typed by the person are themselves, not patterns. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The digits of a number typed in part (`345 67`, `+261 34`), for a match inside stored E.164 numbers. */
const digitsOf = (q: string) => (/^[+\d\s().-]+$/.test(q) ? q.replace(/\D/g, '') : '');

/**
 * How many of an organization's newest messages a text search reads. An index of message text
 * (trigram GIN) halved the rate of inserts on the bulk-send path, so there is none: ids and whole
 * numbers are looked up by index in every message, text and parts of numbers in these.
 */
export const TEXT_SEARCH_WINDOW = 100_000;

/**
 * Messages of the organization whose id is the text or whose recipient is the number (read with
 * the default country, as a send reads it), among all of them; or, among its newest
 * TEXT_SEARCH_WINDOW, whose recipient holds the digits or whose body holds the text. Newest
 * first; at least 3 characters.
 */
export async function searchMessages(ctx: AppContext, orgId: string, q: string) {
  const org = await findOrganization(ctx.db, orgId);
  if (!org) throw errors.notFound('organization');
  const digits = digitsOf(q);
  // The window is read as the message list reads a first page (every status's range of the
  // organization's index, merged by id), so a small organization never walks a big one's rows.
  const rows = await searchMessageRows(ctx.db, {
    orgId,
    window: TEXT_SEARCH_WINDOW,
    pattern: likePattern(q),
    digits,
    limit: SEARCH_LIMIT,
    text: q,
    number: normalizeRecipient(q, org.defaultCountry),
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...byId.values()]
    .sort((a, b) => (a.id < b.id ? 1 : -1))
    .slice(0, SEARCH_LIMIT)
    .map(toMessage);
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
