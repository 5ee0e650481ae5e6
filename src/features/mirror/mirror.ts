/**
 * Mirror: everything a key sees on a running service that speaks the original interface, imported
 * here as one all-or-nothing bundle, ids kept, with the key registered (as its SHA-256) on the
 * website, so the same key keeps working against this service.
 *
 *   const result = await mirrorSource(db, { from: 'https://old.example.com', key });
 *
 * Reading comes first (crawl.ts, with the retries of client.ts); nothing is written unless every
 * answer was read and well-formed, and then the import decides as it does for a file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { hashKey } from '../access/index.js';
import { importBundle, type ImportProgress, type ImportReport } from '../../import/index.js';
import { findKeyStateByHash, findWebsiteRecord } from '../access/index.js';
import { mirrorRecordSource } from './to-bundle.js';
import { shownBase, SourceClient, sourceBase, type ClientOptions } from './client.js';
import { MirrorError } from './mirror-errors.js';
import { readSource, type ReadProgress } from './crawl.js';
import { derivedWebsiteId } from './records.js';


export interface MirrorOptions extends ClientOptions {
  /** Base address of the source (its /api/v1 prefix may be included). */
  from: string;
  key: string;
  /** The website to fill; default: the website the key already has here, else derivedWebsiteId. */
  websiteId?: string | undefined;
  prune?: boolean;
  /** Offers per page (default and most: 100). */
  pageSize?: number | undefined;
  onRead?: (progress: ReadProgress) => void;
  /** Called once reading is done, before the import starts. */
  onReadDone?: (summary: { offers: number; pages: number }) => void;
  onImport?: (progress: ImportProgress) => void;
}

export interface MirrorResult {
  report: ImportReport;
  /** The source's base address as shown in messages. */
  source: string;
  websiteId: string;
  keyId: string | undefined;
  offers: number;
  pages: number;
  requests: number;
  retries: number;
  warnings: string[];
}

export async function mirrorSource(db: Kysely<Database>, options: MirrorOptions): Promise<MirrorResult> {
  const base = sourceBase(options.from);
  const source = shownBase(base);
  const key = options.key.trim();
  if (key === '') throw new MirrorError('--key: the key is empty');
  const keySha256 = hashKey(key);

  const knownKey = await findKeyStateByHash(db, keySha256);
  const websiteId = options.websiteId?.toLowerCase() ?? knownKey?.website_id ?? derivedWebsiteId(source, keySha256);
  const knownWebsite = await findWebsiteRecord(db, websiteId);

  const client = new SourceClient(base, key, options);
  const spoolDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ecs-mirror-'));
  try {
    const content = await readSource(client, spoolDir, { pageSize: options.pageSize, onProgress: options.onRead });
    options.onReadDone?.({ offers: content.offers, pages: content.pages });
    // A key registered here before keeps what the operator set on it (label, state, expiry).
    const apiKey =
      knownKey && knownKey.website_id === websiteId
        ? { key_id: knownKey.key_id, key_sha256: keySha256, is_active: knownKey.is_active, expires_at: knownKey.expires_at, label: knownKey.label }
        : { key_sha256: keySha256, is_active: true, label: `mirror of ${base.host}` };
    const website = {
      type: 'website',
      website_id: websiteId,
      organization_id: content.organization.organization_id,
      name: knownWebsite?.name ?? `${content.organization.name} (mirror of ${base.host})`,
      // No scope: a record without one keeps the website's (the operator's; the interface has none).
      api_keys: [apiKey],
    };
    const records = await mirrorRecordSource(source, content, website);
    const report = await importBundle(db, records, { prune: Boolean(options.prune), onProgress: options.onImport });
    const keyId = (await findKeyStateByHash(db, keySha256))?.key_id;
    return {
      report,
      source,
      websiteId,
      keyId,
      offers: content.offers,
      pages: content.pages,
      requests: client.stats.requests,
      retries: client.stats.retries,
      warnings: content.warnings,
    };
  } finally {
    await fs.promises.rm(spoolDir, { recursive: true, force: true });
  }
}
