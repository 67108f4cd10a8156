import type { Queryable } from '../../db/pool.js';
import type { SendWindows } from '../windows.js';

/** The organization's send windows (null: none); undefined when there is no such organization. */
export async function selectOrgSendWindows(db: Queryable, orgId: string): Promise<SendWindows | null | undefined> {
  const { rows } = await db.query<{ sendWindows: SendWindows | null }>('SELECT send_windows AS "sendWindows" FROM organizations WHERE id = $1', [orgId]);
  return rows[0]?.sendWindows;
}
