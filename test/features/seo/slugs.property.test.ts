/**
 * The slug rules as properties (extension E12):
 *   - ecs_slug on random Polish text: lower-case ASCII words joined by `-`, at most 80 characters,
 *     and the words of the text folded independently here (NFD without marks, ł→l), cut after a
 *     whole word; and on any text what its first definition (SQL, before PL/pgSQL) gave;
 *   - over random sequences of imports that rename offers and give slugs (from small pools, so
 *     they clash): an import is rejected exactly when a given slug is another offer's (now or
 *     before) or given twice; otherwise slugs stay unique, an offer keeps its slug unless a new
 *     one is given, and every slug an offer ever had resolves to it and its current slug.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { scaled } from '../../helpers/scale.js';
import { importRejected, resetDatabase, smallBundle } from '../../import/helpers.js';
import { FOLD_FROM, FOLD_TO } from '../../../src/db/routines/search-folding.js';

const KEY = 'ecs_slug_property_key_0123456789abcdefghijk';
const SLUG_RUNS = scaled('SLUG_RUNS', 6, 40);
const SLUG_TEXTS = scaled('SLUG_TEXTS', 2000, 20000);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ seed: false });
});
afterAll(() => t.destroy());

/** The words of a text, folded here without the service's table: NFD without marks, and the letters that do not decompose. */
function foldedWords(text: string): string[] {
  const folded = [...text.toLowerCase()]
    .map((c) => ({ ł: 'l', ø: 'o', ß: 's' })[c] ?? c.normalize('NFD').replace(/\p{M}/gu, ''))
    .join('');
  return folded.split(/[^a-z0-9]+/).filter((w) => w !== '');
}

const POLISH = 'aąbcćdeęfghijklłmnńoóprsśtuwyzźżAĄCĆEĘŁNŃOÓSŚZŹŻ0123456789     ,.-–!?/%()';
const polishText = fc.string({ unit: fc.constantFrom(...POLISH), maxLength: 160 });

describe('ecs_slug', () => {
  it('gives lower-case ASCII words joined by "-", at most 80 characters, the text\'s words cut after a whole word', async () => {
    const texts = fc.sample(polishText, { numRuns: SLUG_TEXTS, seed: Number(process.env.FC_SEED ?? 42) });
    const result = await sql<{ t: string; s: string }>`select x as t, ecs_slug(x) as s from unnest(${texts}::text[]) as x`.execute(t.db.db);
    for (const { t: text, s } of result.rows) {
      expect(s, text).toMatch(/^([a-z0-9]+(-[a-z0-9]+)*)?$/);
      expect(s.length, text).toBeLessThanOrEqual(80);
      const words = foldedWords(text);
      const all = words.join('-');
      if (all.length <= 80) expect(s, text).toBe(all);
      else if (words[0]!.length > 80) expect(s, text).toBe(words[0]!.slice(0, 80));
      else {
        // The longest run of whole words that fits.
        let fit = words[0]!;
        for (const w of words.slice(1)) {
          if (fit.length + 1 + w.length > 80) break;
          fit += `-${w}`;
        }
        expect(s, text).toBe(fit);
      }
    }
  });
});

/** ecs_slug's first definition (SQL, as migration 2026_11_27_0040 made it), under another name. */
const FIRST_DEFINITION = `CREATE OR REPLACE FUNCTION ecs_test_slug_first(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
      WHEN length(s) <= 80 THEN s
      WHEN position('-' in left(s, 81)) = 0 THEN left(s, 80)
      ELSE regexp_replace(left(s, 81), '-[^-]*$', '') END
    FROM (SELECT btrim(regexp_replace(translate(lower(coalesce(t, '')), '${FOLD_FROM}', '${FOLD_TO}'), '[^a-z0-9]+', '-', 'g'), '-') AS s) AS folded
  $$`;

describe('ecs_slug as PL/pgSQL', () => {
  it('gives what its first definition in SQL gave, on any text', async () => {
    await sql.raw(FIRST_DEFINITION).execute(t.db.db);
    const anyText = fc.oneof(
      polishText,
      fc.string({ unit: fc.constantFrom(...FOLD_FROM, ...'-- xyzXYZ09İK'), maxLength: 200 }),
      fc.string({ unit: 'grapheme', maxLength: 120 }),
    );
    const texts = [...fc.sample(anyText, { numRuns: SLUG_TEXTS, seed: Number(process.env.FC_SEED ?? 42) }), '', 'x'.repeat(81), `${'a'.repeat(79)} b`];
    const result = await sql<{ t: string; now: string; first: string }>`
      select x as t, ecs_slug(x) as now, ecs_test_slug_first(x) as first from unnest(${texts}::text[]) as x`.execute(t.db.db);
    for (const row of result.rows) expect(row.now, row.t).toBe(row.first);
    const empty = await sql<{ now: string; first: string }>`select ecs_slug(null) as now, ecs_test_slug_first(null) as first`.execute(t.db.db);
    expect(empty.rows[0]!.now).toBe(empty.rows[0]!.first);
  });
});

const TITLES = ['Mieszkanie Łódź', 'Mieszkanie łódź!', 'Dom z ogrodem', 'Kawalerka — Śródmieście', 'Dom z ogrodem '];
const GIVEN = ['nowy-dom', 'mieszkanie-lodz', 'dom-z-ogrodem', 'oferta-1', 'oferta-2'];

interface Step {
  readonly titles: readonly string[];
  /** A given slug per offer (undefined: none). */
  readonly given: readonly (string | undefined)[];
}

const OFFERS = 3;
const step: fc.Arbitrary<Step> = fc.record({
  titles: fc.array(fc.constantFrom(...TITLES), { minLength: OFFERS, maxLength: OFFERS }),
  given: fc.array(fc.option(fc.constantFrom(...GIVEN), { nil: undefined, freq: 3 }), { minLength: OFFERS, maxLength: OFFERS }),
});

describe('slugs over sequences of imports', () => {
  it('are unique, stable unless a slug is given, and every old one resolves to the current one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        await resetDatabase(t.db.db);
        const { bundle, ids } = smallBundle();
        bundle.websites![0]!.api_keys = [{ key: KEY, is_active: true }];
        bundle.offers = bundle.offers!.slice(0, OFFERS);
        const history = ids.offers.map(() => new Set<string>());
        let current: (string | undefined)[] = ids.offers.map(() => undefined);
        for (const s of steps) {
          bundle.offers.forEach((o, n) => {
            (o.offer_data as Record<string, unknown>).title = s.titles[n];
            if (s.given[n] === undefined) delete o.slug;
            else o.slug = s.given[n];
          });
          // The oracle: a given slug that another offer has or had, or that two offers give, rejects the import.
          const clash = s.given.some(
            (g, n) =>
              g !== undefined &&
              (history.some((h, m) => m !== n && h.has(g)) || s.given.some((other, m) => m !== n && other === g)),
          );
          const rejected = await importRejected(t, bundle);
          expect(rejected).toBe(clash);
          const stored = await sql<{ offer_id: string; slug: string }>`select offer_id, slug from offers`.execute(t.db.db);
          const now = ids.offers.map((id) => stored.rows.find((r) => r.offer_id === id)?.slug);
          if (!rejected) {
            now.forEach((slug, n) => {
              expect(slug).toBeDefined();
              if (s.given[n] !== undefined) expect(slug).toBe(s.given[n]);
              else if (current[n] !== undefined) expect(slug).toBe(current[n]);
              history[n]!.add(slug!);
            });
            current = now;
          } else {
            expect(now).toEqual(current);
          }
          expect(new Set(now.filter((x) => x !== undefined)).size).toBe(now.filter((x) => x !== undefined).length);
          for (const [n, slugs] of history.entries()) {
            for (const old of slugs) {
              const res = await get(t, `/api/v1/slugs/offer/${old}`, { key: KEY });
              expect(res.statusCode, old).toBe(200);
              expect(res.json()).toEqual({ kind: 'offer', id: ids.offers[n], slug: current[n] });
            }
          }
        }
      }),
      { numRuns: SLUG_RUNS },
    );
  });
});
