import type { Queryable } from '../../db/pool.js';
import { type Organization, ORGANIZATION_COLUMNS } from '../org-store.js';

export async function findOrganization(db: Queryable, idOrName: string): Promise<Organization | undefined> {
  const { rows } = await db.query<Organization>(`SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE id = $1 OR name = $1`, [idOrName]);
  return rows[0];
}
