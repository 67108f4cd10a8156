import type { Queryable } from '../../db/pool.js';
import type { SendWindows } from '../windows.js';

/** Sets the organization's send windows (null: none); false when there is no such organization. */
export async function updateOrgSendWindows(db: Queryable, orgId: string, windows: SendWindows | null): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE organizations SET send_windows = $2::jsonb, updated_at = now() WHERE id = $1', [orgId, windows === null ? null : JSON.stringify(windows)]);
  return rowCount === 1;
}
