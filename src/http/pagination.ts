import { Type } from '@sinclair/typebox';
import { errors } from '../errors/errors.js';
import { Int, Text } from '../schemas/schema-kit.js';

/**
 * Lists are newest first over time-sortable ids, so a page boundary is an id: rows created after
 * the first page was read have larger ids and never shift later pages. The cursor is opaque to
 * clients (base64url of a small JSON) so its form can change without breaking them.
 */
export const DEFAULT_PAGE_SIZE = 50;

export const PageQuery = {
  limit: Type.Optional(Int('integer', { minimum: 1, maximum: 100 })),
  before: Type.Optional(Text({ minLength: 1, maxLength: 200, errorMessage: 'must be a nextCursor of a previous page (at most 200 characters)' })),
};

export function encodeCursor(id: string): string {
  return Buffer.from(JSON.stringify({ b: id })).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { b?: unknown };
    if (typeof parsed.b === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(parsed.b)) return parsed.b;
  } catch {
    // fall through to the error below
  }
  throw errors.invalid('query.before: not a cursor returned by this API');
}

/** Callers fetch limit + 1 rows; the extra row only says whether another page exists. */
export function page<T extends { id: string }>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

/**
 * A list endpoint's answer: one page through `select` (given the decoded cursor and limit + 1)
 * as `{[field]: items, nextCursor}`, each item through `view` (none: the rows are the items).
 */
export async function listPage<T extends { id: string }>(
  query: { limit?: number; before?: string },
  field: string,
  select: (page: { before: string | null; limit: number }) => Promise<T[]>,
  view?: (row: T) => unknown,
): Promise<{ status: 200; body: Record<string, unknown> }> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const { items, nextCursor } = page(await select({ before: decodeCursor(query.before), limit }), limit);
  return { status: 200, body: { [field]: view ? items.map(view) : items, nextCursor } };
}
