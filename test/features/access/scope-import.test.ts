/**
 * A website's scope in the bundle (extension E7): stored in its normal form, compared like any
 * field (unchanged on a re-import, changed when the lists change, cleared by null or {}), kept
 * when the record leaves it out, reported when it changes, and checked: every scoped investment
 * and branch must exist in the website's own
 * organization (in the file or the database), or the import is rejected with the record and path
 * and nothing is applied.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { dumpDatabase, importObject, importText, problemsOf, resetDatabase, smallBundle, toNdjson } from '../../import/helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());
beforeEach(() => resetDatabase(t.db));

/** Record numbers of a smallBundle in a JSON bundle: org 1, website 2, branch 3, agent 4, investment 5, offers 6.. */
const WEBSITE_RECORD = 2;

const storedScope = async (websiteId: string) =>
  (await t.db.selectFrom('websites').select('scope').where('website_id', '=', websiteId).executeTakeFirstOrThrow()).scope;

describe('scope in the bundle', () => {
  it('is stored in its normal form, and a re-import of the same scope changes nothing', async () => {
    const { bundle, ids } = smallBundle();
    bundle.websites![0]!.scope = {
      offer_types: ['HOUSE_SALES', 'APARTMENT_SALES', 'HOUSE_SALES'],
      investment_ids: [ids.investment.toUpperCase()],
      branch_ids: [ids.branch],
    };
    const first = await importObject(t.db, bundle);
    expect(first.counts.websites).toEqual({ created: 1, changed: 0, unchanged: 0 });
    expect(await storedScope(ids.website)).toEqual({
      investment_ids: [ids.investment],
      branch_ids: [ids.branch],
      offer_types: ['APARTMENT_SALES', 'HOUSE_SALES'],
    });
    const again = await importObject(t.db, bundle);
    expect(again.counts.websites).toEqual({ created: 0, changed: 0, unchanged: 1 });
    expect(again.changed).toBe(false);
  });

  it('a changed scope changes the website and is reported; null or {} clears it', async () => {
    const { bundle, ids } = smallBundle();
    bundle.websites![0]!.scope = { offer_types: ['APARTMENT_SALES'] };
    expect((await importObject(t.db, bundle)).scopeChanges).toEqual([]); // a new website: created, not changed
    bundle.websites![0]!.scope = { offer_types: ['APARTMENT_RENTALS'] };
    const changed = await importObject(t.db, bundle);
    expect(changed.counts.websites.changed).toBe(1);
    expect(changed.scopeChanges).toEqual([
      { website_id: ids.website, previous_scope: { offer_types: ['APARTMENT_SALES'] }, scope: { offer_types: ['APARTMENT_RENTALS'] } },
    ]);
    expect(await storedScope(ids.website)).toEqual({ offer_types: ['APARTMENT_RENTALS'] });
    for (const cleared of [null, {}]) {
      bundle.websites![0]!.scope = { branch_ids: [ids.branch] };
      await importObject(t.db, bundle);
      bundle.websites![0]!.scope = cleared;
      const report = await importObject(t.db, bundle);
      expect(report.counts.websites.changed).toBe(1);
      expect(report.scopeChanges).toEqual([{ website_id: ids.website, previous_scope: { branch_ids: [ids.branch] }, scope: null }]);
      expect(await storedScope(ids.website)).toBeNull();
    }
  });

  it('a record without scope keeps the stored one; a new website without scope has none', async () => {
    const { bundle, ids } = smallBundle();
    const withoutScope = structuredClone(bundle);
    bundle.websites![0]!.scope = { branch_ids: [ids.branch], offer_types: ['APARTMENT_SALES'] };
    await importObject(t.db, bundle);
    const kept = await importObject(t.db, withoutScope);
    expect(kept.counts.websites).toEqual({ created: 0, changed: 0, unchanged: 1 });
    expect(kept.changed).toBe(false);
    expect(kept.scopeChanges).toEqual([]);
    expect(await storedScope(ids.website)).toEqual({ branch_ids: [ids.branch], offer_types: ['APARTMENT_SALES'] });
    // A new name is written; the scope still stays.
    withoutScope.websites![0]!.name = 'renamed.example';
    const renamed = await importObject(t.db, withoutScope);
    expect(renamed.counts.websites).toEqual({ created: 0, changed: 1, unchanged: 0 });
    expect(renamed.scopeChanges).toEqual([]);
    expect(await storedScope(ids.website)).toEqual({ branch_ids: [ids.branch], offer_types: ['APARTMENT_SALES'] });
    const fresh = smallBundle();
    await importObject(t.db, fresh.bundle);
    expect(await storedScope(fresh.ids.website)).toBeNull();
  });

  it('may name investments and branches further down the file, and in the database (NDJSON too)', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const later = smallBundle({ org: ids.org });
    later.bundle.organizations = [];
    later.bundle.websites = [{ website_id: randomUUID(), organization_id: ids.org, name: 'micro', scope: { investment_ids: [ids.investment, later.ids.investment] } }];
    const report = await importText(t.db, 'scope.ndjson', toNdjson(later.bundle));
    expect(report.counts.websites.created).toBe(1);
  });

  it('rejects an investment or branch of another organization, or one that exists nowhere, and applies nothing', async () => {
    const other = smallBundle();
    await importObject(t.db, other.bundle);
    const before = await dumpDatabase(t.db);
    const { bundle, ids } = smallBundle();
    const missing = randomUUID();
    bundle.websites![0]!.scope = { investment_ids: [ids.investment, other.ids.investment, missing], branch_ids: [other.ids.branch] };
    expect(await problemsOf(importObject(t.db, bundle))).toEqual([
      `record ${WEBSITE_RECORD} websites[0].scope.investment_ids[1]: investment ${other.ids.investment} belongs to another organization`,
      `record ${WEBSITE_RECORD} websites[0].scope.investment_ids[2]: unknown investment ${missing} (not in the file nor in the database)`,
      `record ${WEBSITE_RECORD} websites[0].scope.branch_ids[0]: branch ${other.ids.branch} belongs to another organization`,
    ]);
    expect(await dumpDatabase(t.db)).toEqual(before);
  });

  it('rejects an investment of another organization that is in the same file', async () => {
    const a = smallBundle();
    const b = smallBundle();
    const bundle = {
      organizations: [...a.bundle.organizations!, ...b.bundle.organizations!],
      websites: [{ ...a.bundle.websites![0]!, scope: { investment_ids: [b.ids.investment] } }],
      investments: [...a.bundle.investments!, ...b.bundle.investments!],
    };
    expect(await problemsOf(importObject(t.db, bundle))).toEqual([
      `record 3 websites[0].scope.investment_ids[0]: investment ${b.ids.investment} belongs to another organization`,
    ]);
  });

  it('rejects malformed scopes with their paths', async () => {
    const { bundle } = smallBundle();
    bundle.websites![0]!.scope = { investment_ids: [], branch_ids: ['nope'], offer_types: ['CASTLE_SALES'], regions: ['x'] };
    expect(await problemsOf(importObject(t.db, bundle))).toEqual([
      `record ${WEBSITE_RECORD} websites[0].scope.regions: unknown field`,
      `record ${WEBSITE_RECORD} websites[0].scope.investment_ids: must not be empty (leave the field out instead)`,
      `record ${WEBSITE_RECORD} websites[0].scope.branch_ids[0]: expected a UUID, got "nope"`,
      expect.stringMatching(new RegExp(`^record ${WEBSITE_RECORD} websites\\[0\\]\\.scope\\.offer_types\\[0\\]: expected one of APARTMENT_SALES, .*, got "CASTLE_SALES"$`)),
    ]);
  });
});
