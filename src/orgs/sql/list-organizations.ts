import type { Queryable } from '../../db/pool.js';
import { type Organization, ORGANIZATION_COLUMNS } from '../org-store.js';

export async function listOrganizations(db: Queryable): Promise<Organization[]> {
  return (await db.query<Organization>(`SELECT ${ORGANIZATION_COLUMNS} FROM organizations ORDER BY id`)).rows;
}
