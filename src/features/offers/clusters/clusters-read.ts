/**
 * The map's clusters (extension E13): the matching offers inside the bbox, counted per cell of the
 * grid (cluster-grid.ts). From the organization's offers held in memory as columns (the facets'
 * columns, facets/columns.ts, which hold every position) when every filter is on a column and
 * there is no search; else one statement that groups by cell in the database. Both put every
 * offer in the same cell and give the same counts; the bbox is the `within_bbox` operator's, so
 * `total` is the list's total for the same filters plus that filter.
 */
import { sql } from 'kysely';
import { offerScopeCondition, type Visibility } from '../../access/index.js';
import { readContentVersion } from '../../content-version/index.js';
import type { ReadDb } from '../../../db/readonly.js';
import type { OfferColumnsCache } from '../facets/columns-cache.js';
import { columnsCanFilter, matchingRows, type OfferColumns } from '../facets/columns.js';
import { offerColumnsLoader } from '../facets/columns-read.js';
import { resolveOfferField, type GeoBox, type OfferFilter } from '../query/language.js';
import { filterCondition } from '../query/operators-sql.js';
import { searchCondition } from '../query/search-sql.js';
import { cellColumn, cellRow, clustersOf, gridLevel, inBox, type CellSums, type ClustersView } from './cluster-grid.js';
import type { OfferClustersRequest } from './clusters-request.js';

export interface ClustersQuery extends OfferClustersRequest {
  /** Limits the clusters to one investment's offers. */
  investmentId?: string;
}

/** The bbox as the list's filter: the same condition, so the same offers. */
function bboxFilter(bbox: GeoBox): OfferFilter {
  return { field: resolveOfferField('location')!, operator: 'within_bbox', value: bbox } as OfferFilter;
}

export async function offerClusters(
  db: ReadDb,
  visibility: Visibility,
  query: ClustersQuery,
  columnsCache: OfferColumnsCache | undefined,
): Promise<ClustersView> {
  if (columnsCache && columnsCanFilter(query.filters, query.search)) {
    const version = await readContentVersion(db);
    if (version !== undefined) {
      const columns = await columnsCache.get(visibility.organizationId, version, offerColumnsLoader(db));
      if (columns) return clustersFromColumns(columns, visibility, query);
    }
  }
  return clustersSql(db, visibility, query);
}

/** One pass over the columns: the matching rows inside the bbox, summed per cell. */
export function clustersFromColumns(columns: OfferColumns, visibility: Visibility, query: ClustersQuery): ClustersView {
  const mask = matchingRows(columns, query.filters, { scope: visibility.scope, investmentId: query.investmentId });
  const lats = columns.numbers['offer_data:location_latitude'];
  const lons = columns.numbers['offer_data:location_longitude'];
  const level = gridLevel(query.zoom, query.bbox);
  const cells = new Map<number, CellSums>();
  const width = 2 ** level;
  for (let i = 0; i < columns.rows; i++) {
    if (mask[i] !== 0) continue;
    const lat = lats[i]!;
    const lon = lons[i]!;
    // NaN (no position) fails every comparison, as NULL does in SQL.
    if (lat !== lat || lon !== lon || !inBox(lat, lon, query.bbox)) continue;
    const column = cellColumn(lon, level);
    const row = cellRow(lat, level);
    const key = row * width + column;
    const id = columns.ids[i]!;
    const cell = cells.get(key);
    if (cell === undefined) {
      cells.set(key, { column, row, count: 1, sumLat: lat, sumLon: lon, south: lat, north: lat, west: lon, east: lon, offerId: id });
    } else {
      cell.count++;
      cell.sumLat += lat;
      cell.sumLon += lon;
      if (lat < cell.south) cell.south = lat;
      if (lat > cell.north) cell.north = lat;
      if (lon < cell.west) cell.west = lon;
      if (lon > cell.east) cell.east = lon;
      if (id < cell.offerId) cell.offerId = id;
    }
  }
  return clustersOf([...cells.values()]);
}

interface CellRow {
  cx: number;
  cy: number;
  n: number;
  slat: number;
  slon: number;
  south: number;
  north: number;
  west: number;
  east: number;
  id: string;
}

/** One statement: the list's conditions plus the bbox, grouped by cell. */
export async function clustersSql(db: ReadDb, visibility: Visibility, query: ClustersQuery): Promise<ClustersView> {
  const { organizationId } = visibility;
  let matching = db.selectFrom('offers as o').where('o.organization_id', '=', organizationId).where('o.is_active', '=', true);
  const inScope = offerScopeCondition(visibility.scope, 'o');
  if (inScope) matching = matching.where(inScope);
  if (query.investmentId !== undefined) matching = matching.where('o.investment_id', '=', query.investmentId);
  for (const filter of [...query.filters, bboxFilter(query.bbox)]) matching = matching.where(filterCondition(filter));
  if (query.search !== undefined) matching = matching.where(searchCondition(query.search, organizationId, query.lang));
  const level = gridLevel(query.zoom, query.bbox);
  const n = 2 ** level;
  // The grid's arithmetic, operation for operation as cluster-grid.ts does it (IEEE doubles).
  const points = matching.select([
    sql<number>`least(floor((o.location_longitude + 180::float8) * ${n}::float8 / 360::float8), ${n - 1}::float8)`.as('cx'),
    sql<number>`least(floor((o.location_latitude + 90::float8) * ${n}::float8 / 180::float8), ${n - 1}::float8)`.as('cy'),
    sql<number>`o.location_latitude`.as('lat'),
    sql<number>`o.location_longitude`.as('lon'),
    sql<string>`o.offer_id::text`.as('id'),
  ]);
  const result = await sql<CellRow>`
    select p.cx, p.cy, count(*)::int as n, sum(p.lat) as slat, sum(p.lon) as slon,
      min(p.lat) as south, max(p.lat) as north, min(p.lon) as west, max(p.lon) as east, min(p.id collate "C") as id
    from (${points}) as p
    group by p.cx, p.cy`.execute(db);
  return clustersOf(
    result.rows.map((r) => ({
      column: Number(r.cx),
      row: Number(r.cy),
      count: Number(r.n),
      sumLat: Number(r.slat),
      sumLon: Number(r.slon),
      south: Number(r.south),
      north: Number(r.north),
      west: Number(r.west),
      east: Number(r.east),
      offerId: r.id,
    })),
  );
}
