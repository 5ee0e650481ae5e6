/**
 * The similarity score of "similar offers" (extension E13), pure: how alike another offer of the
 * same offer type is to the one a page shows, from 0 to 1, as a weighted sum of five parts, each
 * from 0 to 1 and 0 when either offer lacks the value:
 *
 * | part       | weight | 1 when                 | falls to 0                                       |
 * |------------|--------|------------------------|--------------------------------------------------|
 * | investment | 0.30   | the same investment    | another investment, or none                      |
 * | distance   | 0.25   | the same place         | 1 / (1 + km / 2): 0.5 at 2 km, 0.2 at 8 km       |
 * | price      | 0.20   | the same price         | 1 - |a - b| / max(a, b): 0.5 at half or double   |
 * | rooms      | 0.15   | the same number        | 0.5 a room apart, 0 two or more apart            |
 * | size       | 0.10   | the same area          | as price                                         |
 *
 * The sum is rounded to 4 decimals; equal scores are ordered by offer_id, so the order is
 * deterministic. docs/api.md states the same table.
 */
import { EARTH_RADIUS_KM } from '../query/language.js';

/** What the score reads of an offer (the typed columns of the offers table). */
export interface SimilarityFacts {
  readonly offer_id: string;
  readonly investment_id: string | null;
  readonly latitude: number | null;
  readonly longitude: number | null;
  readonly price: number | null;
  readonly rooms: number | null;
  readonly property_size: number | null;
}

export const SIMILARITY_WEIGHTS = { investment: 0.3, distance: 0.25, price: 0.2, rooms: 0.15, size: 0.1 } as const;
/** Distance at which the distance part is one half. */
export const HALF_SCORE_KM = 2;

export const DEFAULT_SIMILAR_SIZE = 6;
export const MAX_SIMILAR_SIZE = 24;

const RAD = Math.PI / 180;

/** Great-circle distance in km (haversine, mean Earth radius). */
export function greatCircleKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const h = Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lon2 - lon1) * RAD) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** 1 - |a - b| / max(a, b) for two positive values, else 0. */
function ratioPart(a: number | null, b: number | null): number {
  if (a === null || b === null || !(a > 0) || !(b > 0)) return 0;
  return 1 - Math.abs(a - b) / Math.max(a, b);
}

/** The score of `other` as a neighbour of `base`, 0..1, rounded to 4 decimals. */
export function similarityScore(base: SimilarityFacts, other: SimilarityFacts): number {
  const w = SIMILARITY_WEIGHTS;
  const investment = base.investment_id !== null && base.investment_id === other.investment_id ? 1 : 0;
  const located = base.latitude !== null && base.longitude !== null && other.latitude !== null && other.longitude !== null;
  const distance = located ? 1 / (1 + greatCircleKm(base.latitude!, base.longitude!, other.latitude!, other.longitude!) / HALF_SCORE_KM) : 0;
  const rooms = base.rooms !== null && other.rooms !== null ? Math.max(0, 1 - Math.abs(base.rooms - other.rooms) / 2) : 0;
  const sum =
    w.investment * investment +
    w.distance * distance +
    w.price * ratioPart(base.price, other.price) +
    w.rooms * rooms +
    w.size * ratioPart(base.property_size, other.property_size);
  return Math.min(1, Math.max(0, Math.round(sum * 10_000) / 10_000));
}

export interface ScoredOffer {
  readonly offer_id: string;
  readonly score: number;
}

/** The `size` best candidates: score descending, then offer_id ascending; never the base offer itself. */
export function rankSimilar(base: SimilarityFacts, candidates: readonly SimilarityFacts[], size: number): ScoredOffer[] {
  const scored: ScoredOffer[] = [];
  for (const other of candidates) {
    if (other.offer_id === base.offer_id) continue;
    scored.push({ offer_id: other.offer_id, score: similarityScore(base, other) });
  }
  scored.sort((a, b) => b.score - a.score || (a.offer_id < b.offer_id ? -1 : a.offer_id > b.offer_id ? 1 : 0));
  return scored.slice(0, size);
}
