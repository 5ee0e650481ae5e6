/** The caller's organization record. */
import { toOrganization } from '../domain/entities.js';
import type { Organization } from '../schemas/resources.js';
import type { ReadDb } from './readonly.js';

export async function findOrganization(db: ReadDb, organizationId: string): Promise<Organization | undefined> {
  const row = await db.selectFrom('organizations').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
  return row ? toOrganization(row) : undefined;
}
