/**
 * The grid of map clusters (extension E13), pure: which cell an offer's position falls in at a
 * zoom, how fine the grid is for a bbox, and the clusters of a set of positions.
 *
 * A grid of level L cuts the world into 2^L columns of 360 / 2^L degrees of longitude and 2^L rows
 * of 180 / 2^L degrees of latitude (cells about square on a web map at Poland's latitudes, where a
 * degree of longitude is 0.62 of a degree of latitude). The level is the map's zoom + 2: a map tile
 * (256 px) spans 360 / 2^zoom degrees of longitude, so a cell is a quarter tile, about 64 px. When
 * the bbox would span more than 1,000 cells (a huge bbox at a high zoom), the grid is made coarser a
 * level at a time until it spans at most 1,000, so no answer holds more than 1,000 clusters.
 *
 * The cell of a position is floor((lon + 180) * 2^L / 360), floor((lat + 90) * 2^L / 180) (the last
 * column and row also hold lon 180 and lat 90): additions, multiplications and divisions only, each
 * correctly rounded in IEEE double precision, so the SQL statement and this code put every position
 * in the same cell.
 */
import type { GeoBox } from '../query/language.js';

export const MIN_ZOOM = 0;
export const MAX_ZOOM = 22;
/** Grid level = zoom + this (quarter-tile cells). */
export const LEVELS_ABOVE_ZOOM = 2;
export const MAX_CLUSTERS = 1000;

export interface Cluster {
  lat: number;
  lon: number;
  count: number;
  bbox: GeoBox;
  offer_id?: string;
}

export interface ClustersView {
  total: number;
  clusters: Cluster[];
}

/** A cell's column at a level. */
export function cellColumn(lon: number, level: number): number {
  const n = 2 ** level;
  return Math.min(Math.floor(((lon + 180) * n) / 360), n - 1);
}

/** A cell's row at a level. */
export function cellRow(lat: number, level: number): number {
  const n = 2 ** level;
  return Math.min(Math.floor(((lat + 90) * n) / 180), n - 1);
}

/** How many cells of a level the bbox touches (west > east crosses the antimeridian). */
export function cellsSpanned(box: GeoBox, level: number): number {
  const n = 2 ** level;
  const rows = cellRow(box.north, level) - cellRow(box.south, level) + 1;
  const west = cellColumn(box.west, level);
  const east = cellColumn(box.east, level);
  const columns = box.west <= box.east ? east - west + 1 : Math.min(n, n - west + east + 1);
  return rows * columns;
}

/** The grid level of a zoom and a bbox: zoom + 2, coarser while the bbox spans more than 1,000 cells. */
export function gridLevel(zoom: number, box: GeoBox): number {
  let level = zoom + LEVELS_ABOVE_ZOOM;
  while (level > 0 && cellsSpanned(box, level) > MAX_CLUSTERS) level--;
  return level;
}

/** One cell's offers, as the SQL statement or the in-memory pass sums them up. */
export interface CellSums {
  column: number;
  row: number;
  count: number;
  sumLat: number;
  sumLon: number;
  south: number;
  north: number;
  west: number;
  east: number;
  /** The smallest offer_id of the cell (its only one when count is 1). */
  offerId: string;
}

/** A centre is the mean of the cell's positions, to 6 decimals (about 0.1 m); one offer's is its own position. */
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The answer from the cells: clusters by count (most first), then cell (south to north, west to
 * east); `offer_id` only on a cluster of one offer.
 */
export function clustersOf(cells: readonly CellSums[]): ClustersView {
  const ordered = [...cells].sort((a, b) => b.count - a.count || a.row - b.row || a.column - b.column);
  let total = 0;
  const clusters = ordered.map((cell): Cluster => {
    total += cell.count;
    const one = cell.count === 1;
    return {
      lat: one ? cell.sumLat : round6(cell.sumLat / cell.count),
      lon: one ? cell.sumLon : round6(cell.sumLon / cell.count),
      count: cell.count,
      bbox: { south: cell.south, west: cell.west, north: cell.north, east: cell.east },
      ...(one ? { offer_id: cell.offerId } : {}),
    };
  });
  return { total, clusters };
}

/** Whether a position is inside a bbox, as the `within_bbox` operator decides (edges inside). */
export function inBox(lat: number, lon: number, box: GeoBox): boolean {
  if (lat < box.south || lat > box.north) return false;
  return box.west <= box.east ? lon >= box.west && lon <= box.east : lon >= box.west || lon <= box.east;
}
