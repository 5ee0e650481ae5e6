/**
 * websites list / websites scope (extension E7) through the command line, in-process on the test
 * database: show, set (exactly the lists given), clear, --json, and the mistakes (unknown website,
 * another organization's investment, a bad id or type, --clear with lists) as one line and exit 1.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { contentVersion, importObject, resetDatabase, smallBundle } from '../../import/helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());
beforeEach(() => resetDatabase(t.db));

class Capture {
  text = '';
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
}

async function cli(args: string[]) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(args, { env: {}, stdout, stderr, database: t });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('websites scope', () => {
  it('shows, sets, replaces and clears a scope; --json prints the website', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const shown = await cli(['websites', 'scope', '--website', ids.website]);
    expect(shown).toEqual({ code: 0, stdout: `Website ${ids.website} sees: whole organization.\n`, stderr: '' });

    const version = await contentVersion(t.db);
    const set = await cli(['websites', 'scope', '--website', ids.website, '--investment', ids.investment.toUpperCase(), '--offer-type', 'HOUSE_SALES', 'APARTMENT_SALES']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`Website ${ids.website} now sees: investments ${ids.investment}; offer types APARTMENT_SALES, HOUSE_SALES.\n`);
    expect(Number(await contentVersion(t.db))).toBe(Number(version) + 1);

    const same = await cli(['websites', 'scope', '--website', ids.website, '--offer-type', 'APARTMENT_SALES', '--offer-type', 'HOUSE_SALES', '--investment', ids.investment]);
    expect(same.stdout).toContain('already saw');

    const replaced = await cli(['websites', 'scope', '--website', ids.website, '--branch', ids.branch, '--json']);
    expect(replaced.code).toBe(0);
    const doc = JSON.parse(replaced.stdout);
    expect(doc).toMatchObject({ website_id: ids.website, organization_id: ids.org, scope: { branch_ids: [ids.branch] }, changed: true });

    const list = await cli(['websites', 'list']);
    expect(list.stdout).toMatch(new RegExp(`${ids.website} +${ids.org} +test\\.example +0/0 +1 branch\\n`));
    const listJson = JSON.parse((await cli(['websites', 'list', '--organization', ids.org, '--json'])).stdout);
    expect(listJson).toEqual([expect.objectContaining({ website_id: ids.website, scope: { branch_ids: [ids.branch] } })]);

    const cleared = await cli(['websites', 'scope', '--website', ids.website, '--clear']);
    expect(cleared.stdout).toBe(`Website ${ids.website} now sees: whole organization.\n`);
    const row = await t.db.selectFrom('websites').select('scope').where('website_id', '=', ids.website).executeTakeFirstOrThrow();
    expect(row.scope).toBeNull();
  });

  it('refuses what cannot be a scope of this website, as one line with exit status 1', async () => {
    const a = smallBundle();
    const b = smallBundle();
    await importObject(t.db, a.bundle);
    await importObject(t.db, b.bundle);
    const missing = randomUUID();
    const cases: Array<[string[], string]> = [
      [['--investment', b.ids.investment], `error: investment ${b.ids.investment} belongs to another organization\n`],
      [['--investment', missing], `error: unknown investment ${missing}\n`],
      [['--branch', b.ids.branch], `error: branch ${b.ids.branch} belongs to another organization\n`],
      [['--branch', 'nope'], 'error: branch id must be a UUID, got "nope"\n'],
      [['--offer-type', 'CASTLE_SALES'], expect.stringMatching(/^error: unknown offer type "CASTLE_SALES" \(one of APARTMENT_SALES, .*\)\n$/) as unknown as string],
      [['--clear', '--branch', a.ids.branch], 'error: give --clear or the lists of the scope (--investment, --branch, --offer-type), not both\n'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['websites', 'scope', '--website', a.ids.website, ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toEqual(message);
    }
    const unknownWebsite = await cli(['websites', 'scope', '--website', missing, '--clear', '--json']);
    expect(unknownWebsite.code).toBe(1);
    expect(JSON.parse(unknownWebsite.stdout)).toEqual({ error: `unknown website ${missing}` });
    const row = await t.db.selectFrom('websites').select('scope').where('website_id', '=', a.ids.website).executeTakeFirstOrThrow();
    expect(row.scope).toBeNull();
  });
});
