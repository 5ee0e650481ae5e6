/**
 * The words an offer is found by (full-text search), computed by the import in TypeScript: the
 * same folding and stemming as the SQL functions ecs_search_fold / ecs_search_stem that turn a query
 * into terms (migration 2026_11_24_0003), which cost PostgreSQL about 20 ms on a 2 KB description.
 * test/features/offers/query/search-text.property.test.ts checks that both give the same words.
 *
 * Folding: ASCII letters lower case, the letters of the fold table without their diacritics
 * (`Łódź` → `lodz`), digits kept, everything else a word break. Stemming: a word loses its longest
 * Polish inflection ending when at least three letters remain (`mieszkaniu` → `mieszkan`).
 */
import { FOLDED_CODE, STEM_ENDINGS } from '../../../db/routines/search-folding.js';

const SPACE = 0x20;
/** Scratch for folding, grown to the longest text seen (the import folds one text at a time). */
let scratch = Buffer.alloc(4096);

/** Longest ending first: a word loses the longest one that leaves at least three letters. */
const ENDINGS_LONGEST_FIRST = [...STEM_ENDINGS].sort((a, b) => b.length - a.length);
const MIN_STEM = 3;
/** Stems of words seen (descriptions repeat a small vocabulary); emptied when it grows large. */
const stems = new Map<string, string>();
const MAX_REMEMBERED_STEMS = 50_000;

/** The folded words of a text, in order. */
export function foldWords(text: string | null | undefined): string[] {
  if (!text) return [];
  const length = text.length;
  if (scratch.length < length) scratch = Buffer.alloc(Math.max(length, scratch.length * 2));
  for (let i = 0; i < length; i++) scratch[i] = FOLDED_CODE[text.charCodeAt(i)]! || SPACE;
  return scratch.toString('latin1', 0, length).split(' ').filter((w) => w !== '');
}

export function stemWord(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = word;
    for (const ending of ENDINGS_LONGEST_FIRST) {
      if (word.length - ending.length >= MIN_STEM && word.endsWith(ending)) {
        stem = word.slice(0, word.length - ending.length);
        break;
      }
    }
    if (stems.size >= MAX_REMEMBERED_STEMS) stems.clear();
    stems.set(word, stem);
  }
  return stem;
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

/** Weights as tsvector stores them: the top two bits of a position (D 0, C 1, B 2, A 3). */
const WEIGHT_BITS = { A: 3, B: 2, C: 1 } as const;
const WEIGHT_LETTERS = ['D', 'C', 'B', 'A'] as const;
const POSITION_MASK = 0x3fff;

/**
 * An offer's search vector: each weight's words numbered on from the previous weight's, as
 * ecs_search_vector's `||` numbers them (title A, then place B, then description C).
 *
 * It is built once, in tsvector's binary form (what tsvectorsend writes and tsvectorrecv reads),
 * and reaches the database in the form its driver sends best:
 * - pg calls `toPostgres()` and sends the bytes as a binary parameter. The server then copies
 *   lexemes and positions instead of parsing text character by character, sorting and merging: that
 *   parse was a quarter of the import's database time (perf), and the import waits on the database.
 * - PGlite sends a parameter of a type it has no serializer for as `toString()`: the text form
 *   (`'balkon':9C 'mieszkan':1A,12C`), which the database's tsvector input reads.
 *
 * Either way the database holds the same vector. The binary form is what tsvector's own input
 * makes of the text: one entry per word, its positions rising (a position clamped to the last one
 * kept once, with the higher weight, as the input's merge keeps it), words in byte order. The
 * receive function would sort the words itself, but the import waits on the database and not on
 * this process: sorting here made 100,000 offers import in 42–44 s instead of 45–46 s. Words are
 * [a-z0-9]+ (foldWords): one byte per character, no quotes or escapes, and JavaScript's string
 * order is their byte order.
 */
export class SearchVector {
  constructor(
    readonly binary: Buffer,
    /** The vector's words, in byte order (what tsvector_to_array gives). */
    readonly lexemes: readonly string[],
  ) {}

  toPostgres(): Buffer {
    return this.binary;
  }

  toString(): string {
    const b = this.binary;
    const count = b.readInt32BE(0);
    let at = 4;
    const entries: string[] = [];
    for (let i = 0; i < count; i++) {
      const end = b.indexOf(0, at);
      const word = b.toString('latin1', at, end);
      at = end + 1;
      const positions = b.readUInt16BE(at);
      at += 2;
      const list: string[] = [];
      for (let j = 0; j < positions; j++, at += 2) {
        const p = b.readUInt16BE(at);
        list.push(`${p & POSITION_MASK}${WEIGHT_LETTERS[p >> 14]}`);
      }
      entries.push(list.length === 0 ? `'${word}'` : `'${word}':${list.join(',')}`);
    }
    return entries.join(' ');
  }
}

export function searchVector(words: OfferSearchWords): SearchVector {
  const positions = new Map<string, number[]>();
  let bytes = 4;
  let position = 0;
  for (const [list, weight] of [[words.title, 'A'], [words.place, 'B'], [words.body, 'C']] as const) {
    const bits = WEIGHT_BITS[weight] << 14;
    for (const word of list) {
      if (word.length > MAX_WORD_LENGTH) continue;
      position += 1;
      const at = Math.min(position, MAX_POSITION);
      const earlier = positions.get(word);
      if (earlier === undefined) {
        positions.set(word, [bits | at]);
        bytes += word.length + 5;
      } else if ((earlier[earlier.length - 1]! & POSITION_MASK) < at) {
        earlier.push(bits | at);
        bytes += 2;
      }
    }
  }
  const out = Buffer.allocUnsafe(bytes);
  out.writeInt32BE(positions.size, 0);
  let at = 4;
  const lexemes = [...positions.keys()].sort();
  for (const word of lexemes) {
    const list = positions.get(word)!;
    // Byte by byte: words are short, and a native write per word cost more than the loop.
    for (let i = 0; i < word.length; i++) out[at++] = word.charCodeAt(i);
    out[at++] = 0;
    out[at++] = list.length >> 8;
    out[at++] = list.length & 0xff;
    for (const p of list) {
      out[at++] = p >> 8;
      out[at++] = p & 0xff;
    }
  }
  return new SearchVector(out, lexemes);
}
