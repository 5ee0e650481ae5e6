/**
 * The import makes a new offer's made slug in TypeScript (src/features/seo/made-slug.ts) and sends
 * it with the row instead of calling ecs_slug in the insert: on random titles and cities (Polish
 * letters, other Latin letters with diacritics, other scripts, İ and the Kelvin sign, marks,
 * punctuation, emoji, long texts) the twin gives exactly ecs_slug's slug, or leaves the text to
 * the database; it leaves only texts with a letter outside ASCII and the fold table; and this
 * database agrees with it on the characters it checks at an import's start.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLD_FROM } from '../../../src/db/routines/search-folding.js';
import { madeOfferSlug, slugText } from '../../../src/features/seo/made-slug.js';
import { madeSlugsAgree } from '../../../src/features/seo/index.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { scaled } from '../../helpers/scale.js';

const TEXTS = scaled('SLUG_TWIN_TEXTS', 3000, 30000);
const SEED = Number(process.env.FC_SEED ?? 42);

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.destroy());

const POLISH = [...'aąbcćdeęfghijklłmnńoóprsśtuwyzźżAĄCĆEĘŁNŃOÓSŚZŹŻ0123456789     ,.-–—!?/%()"\'\t\n'];
const OTHER = [...'ĉĈőŐøØßẞİıKÅΩωΣσςЖжЯя中文한🙂€№ⅠⅰⒶ\u0301\u0307\u00a0\u200b'];
const polish = fc.string({ unit: fc.constantFrom(...POLISH), maxLength: 200 });
const mixed = fc.string({ unit: fc.constantFrom(...POLISH, ...FOLD_FROM, ...OTHER), maxLength: 120 });
const anything = fc.string({ unit: 'grapheme', maxLength: 100 });
/** A title and a city as the import joins them (rows.ts: title, a space, the city). */
const offerText = fc.tuple(fc.oneof(polish, mixed, anything), fc.oneof(fc.constantFrom('Warszawa', 'Łódź', 'Kraków', ''), polish, mixed)).map(([title, city]) => `${title} ${city}`);

/** A letter the twin cannot lower for sure: not ASCII, not in the fold table. */
const UNSURE = new RegExp(`[^\\x00-\\x7f${FOLD_FROM}]`, 'u');
const hasUnsureLetter = (text: string) => [...text].some((c) => /\p{L}/u.test(c) && UNSURE.test(c));

describe('the made slug in TypeScript', () => {
  it('this database agrees on the characters an import checks', async () => {
    expect(await madeSlugsAgree(db.db)).toBe(true);
  });

  it('is ecs_slug of the text, or left to the database only for a letter outside ASCII and the fold table', async () => {
    const texts = [
      ...fc.sample(offerText, { numRuns: TEXTS, seed: SEED }),
      '',
      ' ',
      '!!! ',
      'x'.repeat(81),
      `${'a'.repeat(79)} b`,
      `${'a'.repeat(80)} b`,
      `${'ab '.repeat(40)}`,
      'İstanbul Kraków',
      'Kelvin Łódź',
    ];
    const { rows } = await sql<{ s: string }>`select ecs_slug(x) as s from unnest(${texts}::text[]) with ordinality as t(x, n) order by n`.execute(db.db);
    let made = 0;
    texts.forEach((text, i) => {
      const twin = slugText(text);
      if (twin === undefined) expect(hasUnsureLetter(text), text).toBe(true);
      else {
        made += 1;
        expect(twin, text).toBe(rows[i]!.s);
        expect(madeOfferSlug(text), text).toBe(rows[i]!.s || 'offer');
      }
    });
    // Most texts are made here (the Polish ones always).
    expect(made).toBeGreaterThan(texts.length / 3);
  });
});
