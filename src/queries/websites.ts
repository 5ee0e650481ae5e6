/** Websites, for the operator's eyes (the start-up hint of how to get a key). */
import type { ReadDb } from './readonly.js';

export interface WebsiteSummary {
  website_id: string;
  name: string;
}

/** The first `limit` websites by name. */
export async function listWebsites(db: ReadDb, limit: number): Promise<WebsiteSummary[]> {
  return db.selectFrom('websites').select(['website_id', 'name']).orderBy('name').orderBy('website_id').limit(limit).execute();
}
