/**
 * The words an offer is found by (full-text search), computed by the import in TypeScript: the
 * same folding and stemming as the SQL functions ecs_search_fold / ecs_search_stem that turn a query
 * into terms (migration 2026_11_24_0003), which cost PostgreSQL about 20 ms on a 2 KB description.
 * test/domain/search-text.property.test.ts checks that both give the same words.
 *
 * Folding: ASCII letters lower case, the letters of the fold table without their diacritics
 * (`Łódź` → `lodz`), digits kept, everything else a word break. Stemming: a word loses its longest
 * Polish inflection ending when at least three letters remain (`mieszkaniu` → `mieszkan`).
 */
import { FOLD_FROM, FOLD_TO, STEM_ENDINGS } from '../db/migrations/2026_11_24_0003_search_and_geo.js';

const FOLD = new Map<string, string>([...FOLD_FROM].map((c, i) => [c, [...FOLD_TO][i]!]));
/** Characters outside ASCII: folded by the table, or word breaks (a callback only for these). */
const NOT_ASCII = /[^\x00-\x7f]/g;
const WORD_BREAKS = /[^a-z0-9]+/;
/** A word of at least 3 letters followed by its longest ending (the stem part is lazy). */
const STEM = new RegExp(`^([a-z0-9]{3,}?)(${STEM_ENDINGS.join('|')})$`);

/** The folded words of a text, in order. */
export function foldWords(text: string | null | undefined): string[] {
  if (!text) return [];
  // Every other character is made ASCII first, so lower case then touches ASCII letters only; the
  // table holds both cases, so this gives what the SQL's lower-then-translate gives.
  const folded = text.replace(NOT_ASCII, (c) => FOLD.get(c) ?? ' ').toLowerCase();
  return folded.split(WORD_BREAKS).filter((w) => w !== '');
}

export function stemWord(word: string): string {
  const m = STEM.exec(word);
  return m ? m[1]! : word;
}

/** Every distinct word of the texts, folded and stemmed (one weight of the vector). */
export function searchWords(...texts: ReadonlyArray<string | null | undefined>): string[] {
  const folded = new Set<string>();
  for (const text of texts) for (const word of foldWords(text)) folded.add(word);
  const words = new Set(folded);
  for (const word of folded) words.add(stemWord(word));
  return [...words];
}

/** A word of a search: its stem, and whether it matches as a prefix (the last word, still being typed). */
export interface SearchTerm {
  lexeme: string;
  prefix: boolean;
}

/**
 * A search as terms, one per word: stemmed, the last one a prefix (`mieszkania mokot` → `mieszkan`,
 * `mokot` as a prefix). The same as the SQL function ecs_search_terms (`{mieszkan:,mokot:*}`),
 * which the property test holds it to.
 */
export function searchTerms(search: string): SearchTerm[] {
  const words = foldWords(search);
  return words.map((word, i) => ({ lexeme: stemWord(word), prefix: i === words.length - 1 }));
}

/** The three weights of an offer's search vector: title; address and external id; description. */
export interface OfferSearchWords {
  title: string[];
  place: string[];
  body: string[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

export function offerSearchWords(data: Readonly<Record<string, unknown>>, externalId: string): OfferSearchWords {
  return {
    title: searchWords(str(data.title)),
    place: searchWords(
      str(data.address_city), str(data.address_district), str(data.address_subdistrict), str(data.address_street),
      str(data.address_community), str(data.address_county), str(data.address_state), externalId,
    ),
    body: searchWords(str(data.description_clean_text)),
  };
}

/** PostgreSQL keeps word positions up to this one (larger ones become it). */
const MAX_POSITION = 16383;
/** to_tsvector leaves out longer words ("word is too long to be indexed"). */
const MAX_WORD_LENGTH = 2047;

/**
 * The offer's search vector as tsvector text (`'mieszkan':1A 'mokotow':2B … 'mieszkan':12C`): each
 * weight's words numbered on from the previous weight's, as ecs_search_vector's `||` numbers them.
 * The database reads it with the tsvector type's own input, where `to_tsvector` ran its full text
 * parser over words already split and normalized (a third of the import's database time), and
 * split some of them again (`2e9a` became `2e9` and `a`). The input sorts the lexemes and merges a
 * word's weights itself, faster than sorting here. Words are [a-z0-9]+ (foldWords): no escapes.
 */
export function searchVectorText(words: OfferSearchWords): string {
  const parts: string[] = [];
  let position = 0;
  for (const [list, weight] of [[words.title, 'A'], [words.place, 'B'], [words.body, 'C']] as const) {
    for (const word of list) {
      if (word.length > MAX_WORD_LENGTH) continue;
      position += 1;
      parts.push(`'${word}':${Math.min(position, MAX_POSITION)}${weight}`);
    }
  }
  return parts.join(' ');
}
