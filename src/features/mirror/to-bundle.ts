/**
 * What a mirror read, as one record source for the importer (src/import/record-source.ts): the
 * organization, the website (with the key), branches, agents and investments from memory, then the
 * offers from the spool file. Record numbers count in that order and paths read like a JSON
 * bundle's ("offers[12]"), so a problem names the record the way `import` does.
 */
import { memorySource, openBundleFile, type RecordSource, type SourceItem } from '../../import/index.js';
import type { SourceContent } from './crawl.js';

type Json = Record<string, unknown>;

export async function mirrorRecordSource(name: string, content: SourceContent, website: Json): Promise<RecordSource> {
  const entities = memorySource(
    {
      organizations: content.entities.organizations,
      websites: [website],
      branches: content.entities.branches,
      agents: content.entities.agents,
      investments: content.entities.investments,
    },
    name,
  );
  const offers = await openBundleFile(content.offersFile, 'ndjson');
  const before =
    content.entities.organizations.length + 1 + content.entities.branches.length + content.entities.agents.length + content.entities.investments.length;
  return {
    name,
    get totalBytes() {
      return offers.totalBytes;
    },
    get bytesRead() {
      return offers.bytesRead;
    },
    async *records(): AsyncIterable<SourceItem> {
      yield* entities.records();
      for await (const item of offers.records()) {
        const recordNo = item.recordNo === undefined ? undefined : item.recordNo + before;
        const path = item.recordNo === undefined ? item.path : `offers[${item.recordNo - 1}]${item.path ? `.${item.path}` : ''}`;
        yield 'problem' in item ? { recordNo, path, problem: item.problem } : { ...item, recordNo: recordNo!, path };
      }
    },
  };
}
