import type { Queryable } from '../db/pool.js';
import { selectSimilarDeviceNames } from './sql/select-similar-device-names.js';

/**
 * A phone's name no other phone of the organization bears: `Simulated phone 1`, then
 * `Simulated phone 1 (2)`. Two phones sending the same name (two simulators, two of one model)
 * must be told apart on every page. Only for names a phone chose: an operator's name is kept.
 * Two phones pairing in the same instant may still share one; they can be renamed.
 */
export async function unusedName(db: Queryable, orgId: string, wanted: string): Promise<string> {
  const taken = new Set(await selectSimilarDeviceNames(db, orgId, wanted));
  if (!taken.has(wanted)) return wanted;
  let n = 2;
  while (taken.has(`${wanted} (${n})`)) n++;
  // The column holds 128 characters: the suffix replaces the name's end rather than overflowing it.
  const suffix = ` (${n})`;
  return `${wanted.slice(0, 128 - suffix.length)}${suffix}`;
}
