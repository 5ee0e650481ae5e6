/**
 * The API keys of website records. A key belongs to its website: it may not move to another one,
 * and one key (one hash) is registered once, in the file and in the database. A key without an id
 * keeps the id it already has, or gets one derived from its hash.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { storedKeys, type StoredKey } from './lookups-sql.js';
import { joinPath, within } from './problems.js';
import { derivedKeyId } from './rows.js';
import { type ApiKeyRowDraft } from '../features/access/index.js';

type Report = (recordNo: number, path: string, message: string) => void;

export class WebsiteKeys {
  /** Record number of each key id and key hash seen in the file. */
  private readonly ids = new Map<string, number>();
  private readonly hashes = new Map<string, number>();

  /** Notes the keys of a website record; a key id or a key listed twice in the file is a problem. */
  note(recordNo: number, recordPath: string, drafts: readonly ApiKeyRowDraft[], report: Report): void {
    drafts.forEach((draft, index) => {
      const keyPath = within(recordPath, joinPath('api_keys', index));
      if (draft.key_id !== undefined) {
        const other = this.ids.get(draft.key_id);
        if (other !== undefined) report(recordNo, `${keyPath}.key_id`, `duplicate key id ${draft.key_id} (also record ${other})`);
        else this.ids.set(draft.key_id, recordNo);
      }
      const other = this.hashes.get(draft.key_sha256);
      if (other !== undefined) report(recordNo, keyPath, `the same key is listed twice (also record ${other})`);
      else this.hashes.set(draft.key_sha256, recordNo);
    });
  }

  /** The stored keys that share an id or a hash with the keys of these websites. */
  stored(db: Kysely<Database>, drafts: readonly ApiKeyRowDraft[]): Promise<StoredKey[]> {
    return storedKeys(
      db,
      drafts.flatMap((d) => (d.key_id ? [d.key_id] : [])),
      drafts.map((d) => d.key_sha256),
    );
  }

  /**
   * Checks a website's keys against the stored ones and settles each key's id; returns
   * [path within the record, message] of each problem.
   */
  check(websiteId: string, drafts: readonly ApiKeyRowDraft[], stored: readonly StoredKey[]): Array<[string, string]> {
    const problems: Array<[string, string]> = [];
    drafts.forEach((draft, index) => {
      const path = joinPath('api_keys', index);
      const byId = draft.key_id ? stored.find((k) => k.key_id === draft.key_id) : undefined;
      if (byId && byId.website_id !== websiteId) {
        problems.push([`${path}.key_id`, `key ${draft.key_id} belongs to another website`]);
        return;
      }
      const byHash = stored.find((k) => k.key_sha256 === draft.key_sha256);
      if (byHash && (draft.key_id ? byHash.key_id !== draft.key_id : byHash.website_id !== websiteId)) {
        problems.push([path, `this key is already registered as key ${byHash.key_id}`]);
        return;
      }
      draft.key_id ??= byHash?.key_id ?? derivedKeyId(draft.key_sha256);
    });
    return problems;
  }
}
