/**
 * The made slug of a new offer in TypeScript, the twin of ecs_slug (src/db/routines/slug.ts): the
 * import sends it with the row, so that the insert calls no function and looks nothing up for it
 * (20,000 new offers: about 0.7 s of the server's PL/pgSQL and as many look-ups of the id).
 *
 * ecs_slug lowers the text with the database's lower(), which follows its locale (a Turkish one
 * lowers I to ı; ICU and libc differ on İ, the Kelvin and Ångström signs, ẞ…). The twin therefore
 * makes a slug only of texts whose every character is one whose slug it can tell for sure: an ASCII
 * character or a letter of the fold table, both checked against the database's own ecs_slug once
 * per import (write.ts, madeSlugsAgree), or a character that is not a letter (punctuation, digits of other
 * scripts, marks, symbols, halves of pairs outside the BMP), which no locale lowers to an ASCII
 * letter or a letter of the table, so it is a word break either way. Any other letter (Cyrillic,
 * Greek, ĉ, İ…) leaves the text to ecs_slug in the insert, as before.
 * test/features/seo/made-slug-twin.property.test.ts compares the two on random texts.
 */
import { FOLD_FROM, FOLDED_CODE } from '../../db/routines/search-folding.js';
import { SLUG_MAX_LENGTH } from '../../db/routines/slug.js';
import { SUFFIX_LENGTHS } from './model.js';

/** The characters the database's lower() may treat its own way: checked once per import. */
export const CHECKED = [...new Set([...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)), ...FOLD_FROM])];

/** 1 for a UTF-16 code unit the twin can slug for sure (made on first use: 65,536 tests). */
let sure: Uint8Array | undefined;
function sureUnits(): Uint8Array {
  if (sure) return sure;
  const table = new Uint8Array(0x10000);
  const letter = /\p{L}/u;
  for (let code = 0; code < 0x10000; code++) {
    // A lone surrogate is no letter (category Cs): a pair outside the BMP breaks words both ways.
    if (!letter.test(String.fromCharCode(code))) table[code] = 1;
  }
  for (const c of CHECKED) table[c.charCodeAt(0)] = 1;
  sure = table;
  return table;
}

/** Scratch for slugs, grown to the longest text seen. */
let scratch = Buffer.alloc(512);

/** ecs_slug of a text, or undefined when the text has a letter the twin leaves to the database. */
export function slugText(text: string): string | undefined {
  const units = sureUnits();
  for (let i = 0; i < text.length; i++) if (units[text.charCodeAt(i)] === 0) return undefined;
  // lower, translate, every run of other characters one '-', none at either end: the folded words joined.
  // Written into a buffer and read as one flat string: a string grown a character at a time is a
  // chain of thousands of bytes per slug, and the import keeps its slugs until the end.
  if (scratch.length < text.length * 2) scratch = Buffer.alloc(Math.max(text.length * 2, scratch.length * 2));
  let n = 0;
  let dash = false;
  for (let i = 0; i < text.length; i++) {
    const code = FOLDED_CODE[text.charCodeAt(i)]!;
    if (code === 0) dash = n > 0;
    else {
      if (dash) scratch[n++] = 0x2d;
      scratch[n++] = code;
      dash = false;
    }
  }
  const s = scratch.toString('latin1', 0, n);
  if (s.length <= SLUG_MAX_LENGTH) return s;
  const head = s.slice(0, SLUG_MAX_LENGTH + 1);
  if (!head.includes('-')) return s.slice(0, SLUG_MAX_LENGTH);
  return head.slice(0, head.lastIndexOf('-'));
}

/** An offer's made slug (seo's madeSlug: ecs_slug, 'offer' when nothing is left), or undefined: left to the database. */
export function madeOfferSlug(text: string): string | undefined {
  const s = slugText(text);
  return s === undefined ? undefined : s || 'offer';
}

/**
 * A made slug with the first suffix of step 3's later rounds (SUFFIX_LENGTHS[1] hex digits of the
 * id), as write.ts's rounds make it: what an offer that loses its made slug to an earlier one gets,
 * unless that too is taken.
 */
export function suffixedMadeSlug(made: string, id: string): string {
  return `${made}-${id.replace(/-/g, '').toLowerCase().slice(0, SUFFIX_LENGTHS[1])}`;
}
