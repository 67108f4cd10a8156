import type { Queryable } from '../db/pool.js';
import { selectOptedOut } from './sql/select-opted-out.js';

/** The failure code of a message created for an opted-out recipient. */
export const OPTED_OUT = 'opted_out';

export interface OptOutSplit {
  /** The recipients (E.164) the organization may not send to; their messages are created failed. */
  optedOut: ReadonlySet<string>;
  /** The messages that will go out, the count the daily limit is charged. */
  sendable: number;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * A send's recipients, split into those it may reach and the opted-out ones, by one query
 * whatever the number of recipients. A send may not override an opt-out: only the confirmation
 * Hafatra itself sends to a number that just opted out (`confirmation`) skips the list.
 */
export async function splitOptedOut(db: Queryable, orgId: string, recipients: readonly string[], confirmation = false): Promise<OptOutSplit> {
  const optedOut = confirmation ? NONE : await selectOptedOut(db, orgId, [...new Set(recipients)]);
  const sendable = optedOut.size === 0 ? recipients.length : recipients.filter((r) => !optedOut.has(r)).length;
  return { optedOut, sendable };
}
