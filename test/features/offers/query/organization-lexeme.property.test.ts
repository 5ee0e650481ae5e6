/**
 * The lexeme that names an offer's organization in the full-text index key
 * (ecs_organization_lexeme, src/db/routines/organization-lexeme.ts) is the one a search asks for
 * (src/features/offers/query/search-sql.ts): for random organizations, however the caller's id is
 * written, a search finds an offer's words in its own organization and never in another one.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchCondition } from '../../../../src/features/offers/query/search-sql.js';
import { createTestDb, type TestDb } from '../../../helpers/db.js';
import { scaled } from '../../../helpers/scale.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());

/** Words that folding and stemming leave as they are (a letter, then digits). */
const wordArb = fc.stringMatching(/^[a-z][0-9]{1,4}$/);

describe('ecs_organization_lexeme', () => {
  it('is the single lexeme `#<uuid>`', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uuid(), async (id) => {
        const { rows } = await sql<{ lexemes: string[] }>`select tsvector_to_array(ecs_organization_lexeme(${id.toUpperCase()}::uuid)) as lexemes`.execute(t.db);
        expect(rows[0]!.lexemes).toEqual([`#${id}`]);
      }),
      { numRuns: scaled('ORGANIZATION_LEXEME_RUNS', 50, 300) },
    );
  });

  it('holds a search to the organization the caller names', async () => {
    const caseOf = (id: string) => fc.constantFrom(id, id.toUpperCase());
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.uuid(), { minLength: 2, maxLength: 2 }).chain(([own, other]) => fc.tuple(fc.constant(own!), fc.constant(other!), caseOf(own!))),
        fc.uniqueArray(wordArb, { minLength: 1, maxLength: 6 }).chain((words) => fc.tuple(fc.constant(words), fc.subarray(words, { minLength: 1 }))),
        async ([own, other, written], [words, searched]) => {
          const search = searched.join(' ');
          const found = async (organizationId: string) =>
            (
              await sql<{ found: boolean }>`
                select ${searchCondition(search, written)} as found
                from (select array_to_tsvector(${words}::text[]) as search_vector, ${organizationId}::uuid as organization_id) as o`.execute(t.db)
            ).rows[0]!.found;
          expect(await found(own)).toBe(true);
          expect(await found(other)).toBe(false);
        },
      ),
      { numRuns: scaled('ORGANIZATION_LEXEME_RUNS', 50, 300) },
    );
  });
});
