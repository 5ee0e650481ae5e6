/** The caller's organization record. */
import { sql } from 'kysely';
import { prepared } from '../db/prepared.js';
import type { OrganizationRow } from '../db/database.js';
import { toOrganization } from '../domain/entities.js';
import type { Organization } from '../domain/resources.js';
import type { ReadDb } from './readonly.js';

export async function findOrganization(db: ReadDb, organizationId: string): Promise<Organization | undefined> {
  // Fixed text, prepared once per connection (src/db/prepared.ts); columns listed, never `*`.
  const result = await sql<OrganizationRow>`${prepared('find_organization')}
    select organization_id, name, legal_name, nip, logo_url, address, website, phone_number, description,
      cover_image_url, location, social_media_links, contact_email, created_at, updated_at
    from organizations where organization_id = ${organizationId}`.execute(db);
  const row = result.rows[0];
  return row ? toOrganization(row) : undefined;
}
