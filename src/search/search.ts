import type { AppContext } from '../context/app-context.js';
import { MESSAGE_COLUMNS, toMessage, type MessageRow } from '../messages/message.js';
import { messagePageStatement } from '../messages/sql/select-messages.js';
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
 * How many of an organization's newest messages a text search reads. An index of message text
 * (trigram GIN) halved the rate of inserts on the bulk-send path, so there is none: ids and whole
 * numbers are looked up by index in every message, text and parts of numbers in these.
 */
export const TEXT_SEARCH_WINDOW = 100_000;

const WINDOW_COLUMNS = `id, org_id AS "orgId", to_number AS "to", body`;

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
  // The window's rows carry only what is matched (a fifth of the columns): its merge and filter
  // move 100,000 narrow rows, and the few found are read whole by id.
  const { rows } = await ctx.db.query(
    `WITH found AS (SELECT id FROM (${messagePageStatement(undefined, false, WINDOW_COLUMNS)}) recent
       WHERE body ILIKE $3 OR ($4 <> '' AND "to" LIKE $5) ORDER BY id DESC LIMIT $6)
     (SELECT ${MESSAGE_COLUMNS} FROM messages WHERE org_id = $1 AND id IN (SELECT id FROM found) ORDER BY id DESC)
     UNION ALL (SELECT ${MESSAGE_COLUMNS} FROM messages WHERE org_id = $1 AND (id = $7 OR to_number = $8) ORDER BY id DESC LIMIT $6)`,
    [orgId, TEXT_SEARCH_WINDOW, likePattern(q), digits, `%${digits}%`, SEARCH_LIMIT, q, normalizeRecipient(q, org.defaultCountry)],
  );
  const byId = new Map((rows as MessageRow[]).map((r) => [r.id, r]));
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
