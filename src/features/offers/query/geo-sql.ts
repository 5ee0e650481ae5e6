/**
 * Geography in SQL (extension E2): the `location` filters and the distance sort, on the typed
 * columns location_latitude / location_longitude (migration 2026_11_24_0003; typed-columns.ts).
 *
 * Every shape first bounds latitude and longitude, which the index (organization, latitude,
 * longitude) answers, and only then checks the exact shape on the rows left: a great-circle
 * distance for a radius, PostgreSQL's point-in-polygon for a polygon. Offers without both
 * coordinates never match (NULL never passes a comparison) and come last in a distance sort.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { EARTH_RADIUS_KM, type GeoBox, type GeoPoint, type GeoPolygon, type GeoRadius } from './language.js';
import { geographyColumn } from './typed-columns.js';

const LAT = sql.ref(`o.${geographyColumn('location_latitude')}`);
const LON = sql.ref(`o.${geographyColumn('location_longitude')}`);
const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;

const float = (value: number) => sql`${value}::float8`;

/** Great-circle distance (haversine) in km from a point to the offer; NULL without coordinates. */
export function distanceFrom(point: GeoPoint): RawBuilder<number | null> {
  const lat = float(point.lat);
  const lon = float(point.lon);
  const h = sql`(power(sin(radians(${LAT} - ${lat}) / 2), 2) + cos(radians(${lat})) * cos(radians(${LAT})) * power(sin(radians(${LON} - ${lon}) / 2), 2))`;
  // Rounding can take h a hair above 1; CASE (not LEAST, which skips NULLs) keeps NULL for no coordinates.
  return sql<number | null>`(2 * ${float(EARTH_RADIUS_KM)} * asin(case when ${h} > 1 then 1::float8 else sqrt(${h}) end))`;
}

/** Longitudes from west to east, across the antimeridian when west > east. */
function longitudeRange(west: number, east: number): RawBuilder<SqlBool> {
  return west <= east
    ? sql<SqlBool>`${LON} between ${float(west)} and ${float(east)}`
    : sql<SqlBool>`(${LON} >= ${float(west)} or ${LON} <= ${float(east)})`;
}

function box(b: GeoBox): RawBuilder<SqlBool> {
  return sql<SqlBool>`${LAT} between ${float(b.south)} and ${float(b.north)} and ${longitudeRange(b.west, b.east)}`;
}

/** The box around a circle, on the sphere: wider in longitude away from the equator, whole around a pole. */
export function boxAround(c: GeoRadius): GeoBox {
  const dLat = c.km / KM_PER_DEGREE;
  const south = Math.max(-90, c.lat - dLat);
  const north = Math.min(90, c.lat + dLat);
  if (south <= -90 || north >= 90) return { south, north, west: -180, east: 180 };
  // The widest parallel of the circle is the one nearest the pole.
  const cosLat = Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180);
  const dLon = c.km / (KM_PER_DEGREE * cosLat);
  if (dLon >= 180) return { south, north, west: -180, east: 180 };
  const wrap = (lon: number) => (lon < -180 ? lon + 360 : lon > 180 ? lon - 360 : lon);
  return { south, north, west: wrap(c.lon - dLon), east: wrap(c.lon + dLon) };
}

export function withinRadius(c: GeoRadius): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${box(boxAround(c))} and ${distanceFrom(c)} <= ${float(c.km)})`;
}

export function withinBox(b: GeoBox): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${box(b)})`;
}

/**
 * Inside a polygon of [lat, lon] points (closed by itself; the boundary counts as inside), as a
 * plane figure in degrees: right for the areas a map view draws, not for polygons that cross the
 * antimeridian or hold a pole.
 */
export function withinPolygon(points: GeoPolygon): RawBuilder<SqlBool> {
  const lats = points.map((p) => p[0]);
  const lons = points.map((p) => p[1]);
  const bounds: GeoBox = { south: Math.min(...lats), north: Math.max(...lats), west: Math.min(...lons), east: Math.max(...lons) };
  // PostgreSQL's geometric points are (x, y) = (longitude, latitude).
  const polygon = `(${points.map(([lat, lon]) => `(${lon},${lat})`).join(',')})`;
  return sql<SqlBool>`(${box(bounds)} and point(${LON}, ${LAT}) <@ ${polygon}::polygon)`;
}
