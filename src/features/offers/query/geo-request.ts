/**
 * Reads the geography of an offer request (extension E2): the values of the `location` filters and
 * the `from` point of a distance sort, each problem reported at the exact part of the value
 * (["body","filters",2,"value","lat"], ["body","filters",0,"value",5,1], ...). The shapes of the
 * geography operators' values (RADIUS, BOX, POLYGON) are named by their records in operators.ts.
 */
import {
  MAX_POLYGON_POINTS,
  MAX_RADIUS_KM,
  MIN_POLYGON_POINTS,
  type GeoBox,
  type GeoPoint,
  type GeoPolygon,
  type GeoRadius,
  type IssueSink,
  type ValueShape,
} from './values.js';
import { issues, type Loc } from '../../../http/validation/issues.js';
import { laxFloat } from '../../../http/validation/lax.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface Bounds {
  ge?: number;
  gt?: number;
  le: number;
}

const LATITUDE: Bounds = { ge: -90, le: 90 };
const LONGITUDE: Bounds = { ge: -180, le: 180 };
const KILOMETRES: Bounds = { gt: 0, le: MAX_RADIUS_KM };

/** A finite number within bounds, or undefined (reported). */
function bounded(check: IssueSink, value: unknown, loc: Loc, bounds: Bounds): number | undefined {
  const n = laxFloat(value, loc);
  if (!n.ok) {
    check.report(n.issue);
    return undefined;
  }
  if (!Number.isFinite(n.value)) {
    check.report(issues.finiteNumber(loc, value));
    return undefined;
  }
  if (bounds.ge !== undefined && n.value < bounds.ge) check.report(issues.greaterThanEqual(loc, value, bounds.ge));
  else if (bounds.gt !== undefined && !(n.value > bounds.gt)) check.report(issues.greaterThan(loc, value, bounds.gt));
  else if (n.value > bounds.le) check.report(issues.lessThanEqual(loc, value, bounds.le));
  else return n.value;
  return undefined;
}

/** An object's numeric members, each required and bounded; undefined if any is wrong (all reported). */
function members<K extends string>(check: IssueSink, value: unknown, loc: Loc, spec: Record<K, Bounds>): Record<K, number> | undefined {
  if (!isObject(value)) {
    check.report(issues.modelAttributesType(loc, value));
    return undefined;
  }
  const out = {} as Record<K, number>;
  let valid = true;
  for (const [name, bounds] of Object.entries(spec) as [K, Bounds][]) {
    if (!Object.hasOwn(value, name)) {
      check.report(issues.missing([...loc, name], value));
      valid = false;
      continue;
    }
    const n = bounded(check, value[name], [...loc, name], bounds);
    if (n === undefined) valid = false;
    else out[name] = n;
  }
  return valid ? out : undefined;
}

/** `{"lat": .., "lon": ..}`: a distance sort's `from`. */
export function checkGeoPoint(check: IssueSink, value: unknown, loc: Loc): GeoPoint | undefined {
  return members(check, value, loc, { lat: LATITUDE, lon: LONGITUDE });
}

function checkRadius(check: IssueSink, value: unknown, loc: Loc): GeoRadius | undefined {
  return members(check, value, loc, { lat: LATITUDE, lon: LONGITUDE, km: KILOMETRES });
}

export function checkGeoBox(check: IssueSink, value: unknown, loc: Loc): GeoBox | undefined {
  const box = members(check, value, loc, { south: LATITUDE, west: LONGITUDE, north: LATITUDE, east: LONGITUDE });
  if (box && box.south > box.north) {
    check.report(issues.valueError(loc, value, `south (${box.south}) must not be north of north (${box.north})`));
    return undefined;
  }
  // west > east is a box across the antimeridian.
  return box;
}

function checkPolygon(check: IssueSink, value: unknown, loc: Loc): GeoPolygon | undefined {
  if (!Array.isArray(value)) {
    check.report(issues.listType(loc, value));
    return undefined;
  }
  if (value.length > MAX_POLYGON_POINTS) {
    check.report(issues.tooLong(loc, value, MAX_POLYGON_POINTS, value.length));
    return undefined;
  }
  if (value.length < MIN_POLYGON_POINTS) {
    check.report(issues.tooShort(loc, value, MIN_POLYGON_POINTS, value.length));
    return undefined;
  }
  const points: Array<readonly [number, number]> = [];
  let valid = true;
  value.forEach((point, index) => {
    const at = [...loc, index];
    if (!Array.isArray(point)) {
      check.report(issues.listType(at, point));
      valid = false;
    } else if (point.length !== 2) {
      check.report(point.length < 2 ? issues.tooShort(at, point, 2, point.length) : issues.tooLong(at, point, 2, point.length));
      valid = false;
    } else {
      const lat = bounded(check, point[0], [...at, 0], LATITUDE);
      const lon = bounded(check, point[1], [...at, 1], LONGITUDE);
      if (lat === undefined || lon === undefined) valid = false;
      else points.push([lat, lon]);
    }
  });
  return valid ? points : undefined;
}

/** `{"lat", "lon", "km"}`: a circle. */
export const RADIUS: ValueShape<GeoRadius> = { read: (check, _field, value, loc) => checkRadius(check, value, loc), doc: undefined };
/** `{"south", "west", "north", "east"}`: a box. */
export const BOX: ValueShape<GeoBox> = { read: (check, _field, value, loc) => checkGeoBox(check, value, loc), doc: undefined };
/** `[[lat, lon], ...]`: a polygon. */
export const POLYGON: ValueShape<GeoPolygon> = { read: (check, _field, value, loc) => checkPolygon(check, value, loc), doc: undefined };
