/**
 * The import and the queries fold and stem in TypeScript (src/features/offers/query/search-text.ts); the migrations
 * filled existing rows with the SQL functions (ecs_search_words, ecs_search_terms, ecs_search_vector:
 * src/db/routines/search-folding.ts and search-vector.ts). Random texts must give the same words and
 * terms both ways, or a search would miss what was stored.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLACE } from '../../../../src/db/migrations/2026_11_24_0004_search_vector_from_import.js';
import { offerSearchWords, searchTerms, searchVector, searchWords } from '../../../../src/features/offers/query/search-text.js';
import { createTestDb, type TestDb } from '../../../helpers/db.js';
import { scaled } from '../../../helpers/scale.js';

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

const distinct = (list: readonly string[]) => [...new Set(list)].sort();
const words = (spaced: string) => distinct(spaced.split(' ').filter((w) => w !== ''));

async function sqlWords(texts: string[]): Promise<string[][]> {
  const { rows } = await sql<{ w: string }>`select ecs_search_words(t) as w from unnest(${texts}::text[]) with ordinality as x(t, n) order by n`.execute(db.db);
  return rows.map((r) => words(r.w));
}

describe('search words: TypeScript (import) and SQL (queries) agree', () => {
  it('on random texts and Polish phrases', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(text, wordy), { minLength: 1, maxLength: 20 }), async (texts) => {
        const fromSql = await sqlWords(texts);
        expect(texts.map((t) => distinct(searchWords(t)))).toEqual(fromSql);
      }),
      { numRuns: scaled('SEARCH_TEXT_RUNS', 60, 400) },
    );
  });

  it('turns a search into the same tsquery terms as ecs_search_terms', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(text, wordy), { minLength: 1, maxLength: 20 }), async (searches) => {
        const { rows } = await sql<{ terms: string[] }>`
          select ecs_search_terms(q) as terms from unnest(${searches}::text[]) with ordinality as x(q, n) order by n`.execute(db.db);
        // ecs_search_terms writes each term as tsquery text: `stem:`, the last one `stem:*`.
        const asSql = (search: string) => searchTerms(search).map((t) => `${t.lexeme}:${t.prefix ? '*' : ''}`);
        expect(searches.map(asSql)).toEqual(rows.map((r) => r.terms));
      }),
      { numRuns: scaled('SEARCH_TEXT_RUNS', 60, 400) },
    );
  });

  it('writes the vector as text that holds exactly the words of each weight', async () => {
    const part = fc.oneof(text, wordy, fc.constant(''));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(part, part, part), { minLength: 1, maxLength: 10 }), async (offers) => {
        const words = offers.map(([title, place, body]) => ({ title: searchWords(title), place: searchWords(place), body: searchWords(body) }));
        // array_to_tsvector takes lexemes as they are (no parser): the words of one weight.
        const { rows } = await sql<{ a: boolean; b: boolean; c: boolean; positions: number }>`
          select strip(ts_filter(v::tsvector, '{a}')) = array_to_tsvector(t::text[]) as a,
                 strip(ts_filter(v::tsvector, '{b}')) = array_to_tsvector(p::text[]) as b,
                 strip(ts_filter(v::tsvector, '{c}')) = array_to_tsvector(b::text[]) as c,
                 coalesce((select max(pos) from unnest(v::tsvector) as u, unnest(u.positions) as pos), 0)::int as positions
          from unnest(${words.map((w) => String(searchVector(w)))}::text[], ${words.map((w) => `{${w.title.join(',')}}`)}::text[],
                      ${words.map((w) => `{${w.place.join(',')}}`)}::text[], ${words.map((w) => `{${w.body.join(',')}}`)}::text[])
            with ordinality as x(v, t, p, b, n)
          order by n`.execute(db.db);
        rows.forEach((row, i) => {
          const w = words[i]!;
          expect(row).toEqual({ a: true, b: true, c: true, positions: w.title.length + w.place.length + w.body.length });
        });
      }),
      { numRuns: scaled('SEARCH_TEXT_RUNS', 60, 400) },
    );
  });

  it('sends the same vector in tsvector binary form (pg) as in text form', async () => {
    const part = fc.oneof(text, wordy, fc.constant(''));
    // Positions past 16383 are clamped to it: a word in two weights there keeps one position.
    const many = Array.from({ length: 17_000 }, (_, i) => `w${i}`);
    const clamped = { title: ['w1', 'abc'], place: many, body: [...many.slice(16_000), 'abc', 'w1', 'tail'] };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(part, part, part), { minLength: 1, maxLength: 10 }), fc.boolean(), async (offers, withClamped) => {
        const words = offers.map(([title, place, body]) => ({ title: searchWords(title), place: searchWords(place), body: searchWords(body) }));
        if (withClamped) words.push(clamped);
        for (const w of words) {
          const vector = searchVector(w);
          // The text the tsvector input reads, written plainly: every word and position as it comes.
          let position = 0;
          const plain = ([[w.title, 'A'], [w.place, 'B'], [w.body, 'C']] as const)
            .flatMap(([list, weight]) => list.map((word) => `'${word}':${Math.min(++position, 16383)}${weight}`))
            .join(' ');
          // The vector goes as a parameter of its own: binary with pg, its text with PGlite.
          const { rows } = await sql<{ sent: string; text: string; plain: string; canonical: Uint8Array }>`
            select ${vector}::tsvector::text as sent, ${String(vector)}::tsvector::text as text, ${plain}::tsvector::text as plain,
                   tsvectorsend(${plain}::tsvector) as canonical`.execute(db.db);
          expect(rows[0]!.sent).toBe(rows[0]!.plain);
          expect(rows[0]!.text).toBe(rows[0]!.plain);
          // Byte for byte what the server itself sends for the vector: merged, words in its order.
          expect(Buffer.from(rows[0]!.canonical).equals(vector.binary)).toBe(true);
        }
      }),
      { numRuns: scaled('SEARCH_TEXT_RUNS', 30, 200) },
    );
  });

  it('gives the vector that the migration fills existing rows with, weight by weight', async () => {
    const externalId = 'KRK-Łódź/7';
    const data = {
      title: 'Mieszkanie na Mokotowie, 3 pokoje',
      address_city: 'Łódź', address_district: 'Bałuty', address_subdistrict: 'Radogoszcz', address_street: 'ul. Żeromskiego',
      address_community: 'Widzew', address_county: 'łódzki', address_state: 'łódzkie',
      description_clean_text: 'Przestronne mieszkanie z balkonem, blisko parku.',
    };
    const words = offerSearchWords(data, externalId);
    // The vector the import writes (searchVector) against the one the migration filled old rows
    // with: positions differ (the import lists each word once); the words of each weight must not.
    const { rows } = await sql<{ weight: string; same: boolean }>`
      select w.weight, strip(ts_filter(ours, array[w.weight]::"char"[])) = strip(ts_filter(migrated, array[w.weight]::"char"[])) as same
      from (select ${searchVector(words)}::tsvector as ours, ecs_search_vector(
              ecs_search_words(offer_data ->> 'title'), ecs_search_words(${sql.raw(PLACE)}), ecs_search_words(offer_data ->> 'description_clean_text')) as migrated
            from (select ${JSON.stringify(data)}::jsonb as offer_data, ${externalId}::text as external_id) as offers) as v,
           unnest(array['a', 'b', 'c']) as w(weight)`.execute(db.db);
    expect(rows).toEqual([{ weight: 'a', same: true }, { weight: 'b', same: true }, { weight: 'c', same: true }]);
  });
});
