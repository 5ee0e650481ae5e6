/**
 * Full-text search and geography evaluated in memory, written from the rules the docs state and
 * not from the SQL (which folds and stems inside the database): the property tests compare the
 * service's answers with these.
 *
 * Search: letters are folded (case, diacritics; anything else is a space), a word loses its longest
 * inflection ending when at least three letters remain, an offer is found by every word of its
 * title (weight 3), address and external id (2) and description (1), folded and stemmed. A query
 * matches when each of its words (stemmed; the last as a prefix) is among them; its relevance is
 * the sum over the words of the best weight they are found with.
 */
import { STEM_ENDINGS } from '../../src/db/routines/search-folding.js';

const BY_LENGTH = [...STEM_ENDINGS].sort((a, b) => b.length - a.length);
const NOT_COMPOSED: Readonly<Record<string, string>> = { ł: 'l', ø: 'o', ß: 's' };

export function fold(text: string): string[] {
  const lower = text.toLowerCase();
  let out = '';
  for (const ch of lower) {
    const base = NOT_COMPOSED[ch] ?? ch.normalize('NFD').replace(/\p{M}/gu, '');
    out += /^[a-z0-9]$/.test(base) ? base : ' ';
  }
  return out.split(' ').filter((w) => w !== '');
}

export function stem(word: string): string {
  for (const ending of BY_LENGTH) {
    if (word.endsWith(ending) && word.length - ending.length >= 3) return word.slice(0, -ending.length);
  }
  return word;
}

export interface SearchDocument {
  /** Weight 3, 2, 1: the words (folded and stemmed) of title; address and external id; description. */
  readonly byWeight: ReadonlyArray<{ weight: number; words: ReadonlySet<string> }>;
}

export function searchDocument(offer: { external_id: string; data: Record<string, unknown> }): SearchDocument {
  const words = (...texts: unknown[]) => {
    const set = new Set<string>();
    for (const text of texts) {
      if (typeof text !== 'string') continue;
      for (const w of fold(text)) {
        set.add(w);
        set.add(stem(w));
      }
    }
    return set;
  };
  const d = offer.data;
  return {
    byWeight: [
      { weight: 3, words: words(d.title) },
      {
        weight: 2,
        words: words(d.address_city, d.address_district, d.address_subdistrict, d.address_street, d.address_community, d.address_county, d.address_state, offer.external_id),
      },
      { weight: 1, words: words(d.description_clean_text) },
    ],
  };
}

/** The relevance of a document for a query; undefined when it does not match. A query of no word matches with 0. */
export function searchScore(doc: SearchDocument, query: string): number | undefined {
  const words = fold(query);
  let score = 0;
  for (const [i, word] of words.entries()) {
    const term = stem(word);
    const prefix = i === words.length - 1;
    const found = doc.byWeight.find(({ words: set }) => (prefix ? [...set].some((w) => w.startsWith(term)) : set.has(term)));
    if (!found) return undefined;
    score += found.weight;
  }
  return score;
}

// ---------------------------------------------------------------------------------------------
// Geography

export interface Point {
  lat: number;
  lon: number;
}

const EARTH_RADIUS_KM = 6371.0088;

export function distanceKm(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function insideBox(p: Point, box: { south: number; west: number; north: number; east: number }): boolean {
  const lon = box.west <= box.east ? p.lon >= box.west && p.lon <= box.east : p.lon >= box.west || p.lon <= box.east;
  return p.lat >= box.south && p.lat <= box.north && lon;
}

/** Even-odd rule on the plane of (longitude, latitude). */
export function insidePolygon(p: Point, polygon: ReadonlyArray<readonly [number, number]>): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [yi, xi] = polygon[i]!;
    const [yj, xj] = polygon[j]!;
    if (yi > p.lat !== yj > p.lat && p.lon < ((xj - xi) * (p.lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
