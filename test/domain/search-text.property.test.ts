/**
 * The import folds and stems in TypeScript (src/domain/search-text.ts); a query is folded and
 * stemmed by the database (ecs_search_terms). Random texts must give the same words both ways, or a
 * search would miss what the import stored.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { searchWords } from '../../src/domain/search-text.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { scaled } from '../helpers/scale.js';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});

/** Letters people write, letters of other scripts, digits, punctuation and spaces. */
const CHARS = [...'aąbcćdeęfghijklłmnńoóprsśtuwyzźżAĄCĆEĘŁŃÓŚŹŻqvxQVXäöüßÄÖÜéèçøØ0123456789 .,;:-/()"\'\t\nΩω€—🙂'];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 80 }).map((cs) => cs.join(''));
/** Polish words with their endings, so that stemming is exercised. */
const WORDS = ['mieszkanie', 'mieszkania', 'mieszkaniu', 'Mokotowie', 'Mokotów', 'Łodzi', 'Łódź', 'domami', 'domach', 'Żoliborzu', 'ogrodem', 'kawalerka', 'kawalerce', 'ul.', '3/5', 'ab', 'abc', 'abcia'];
const wordy = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((ws) => ws.join(' '));

const words = (spaced: string) => [...new Set(spaced.split(' ').filter((w) => w !== ''))].sort();

async function sqlWords(texts: string[]): Promise<string[][]> {
  const { rows } = await sql<{ w: string }>`select ecs_search_words(t) as w from unnest(${texts}::text[]) with ordinality as x(t, n) order by n`.execute(db.db);
  return rows.map((r) => words(r.w));
}

describe('search words: TypeScript (import) and SQL (queries) agree', () => {
  it('on random texts and Polish phrases', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(text, wordy), { minLength: 1, maxLength: 20 }), async (texts) => {
        const fromSql = await sqlWords(texts);
        expect(texts.map((t) => words(searchWords(t)))).toEqual(fromSql);
      }),
      { numRuns: scaled('SEARCH_TEXT_RUNS', 60, 400) },
    );
  });

  it('gives the vector that the migration fills existing rows with', async () => {
    const title = 'Mieszkanie na Mokotowie, 3 pokoje';
    const { rows } = await sql<{ same: boolean }>`
      select strip(ecs_search_vector(${searchWords(title)}, '', '')) = strip(ecs_search_vector(ecs_search_words(${title}), '', '')) as same`.execute(db.db);
    expect(rows[0]!.same).toBe(true);
  });
});
