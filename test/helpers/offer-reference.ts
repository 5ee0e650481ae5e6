/**
 * A plain in-memory evaluation of an offer query, written from the contract (CONTRACT 6) and not
 * from the SQL compiler: the property test compares the service's answers with it. It takes only
 * the operator names from the service (a type): an operator added to the service's table without
 * its evaluation here does not compile.
 */
import type { FilterOperator } from '../../src/features/offers/query/operators.js';
import { distanceKm, insideBox, insidePolygon, type Point } from './search-reference.js';
import type { WorldOffer } from './offer-world.js';

export type RefKind = 'number' | 'text' | 'enum' | 'uuid' | 'boolean' | 'datetime' | 'array';

/** Fields the world varies, with their kinds. */
export const REF_FIELDS: Record<string, { kind: RefKind; top?: boolean }> = {
  offer_id: { kind: 'uuid', top: true },
  external_id: { kind: 'text', top: true },
  created_at: { kind: 'datetime', top: true },
  updated_at: { kind: 'datetime', top: true },
  version: { kind: 'number', top: true },
  agent_id: { kind: 'uuid', top: true },
  branch_id: { kind: 'uuid', top: true },
  investment_id: { kind: 'uuid', top: true },
  price_changed_at: { kind: 'datetime', top: true },
  price_change_pct: { kind: 'number', top: true },
  price: { kind: 'number' },
  price_per_meter: { kind: 'number' },
  rooms: { kind: 'number' },
  year_built: { kind: 'number' },
  administrative_rent: { kind: 'number' },
  market_type: { kind: 'enum' },
  offer_type: { kind: 'enum' },
  heating: { kind: 'enum' },
  address_city: { kind: 'text' },
  title: { kind: 'text' },
  has_balcony: { kind: 'boolean' },
  has_elevator: { kind: 'boolean' },
  available_from_date: { kind: 'datetime' },
  date_posted: { kind: 'datetime' },
  photos_urls: { kind: 'array' },
};

export const SORTABLE = Object.entries(REF_FIELDS)
  .filter(([, f]) => !['boolean', 'array'].includes(f.kind) && !(f.top && f.kind === 'uuid'))
  .map(([name]) => name)
  .filter((name) => name !== 'offer_id');

type Scalar = number | string | boolean | bigint;

export interface RefFilter {
  /** Field name without the offer_data. prefix. */
  field: string;
  operator: string;
  /** The value in the reference's terms (bigint micros for date-times, lower-case uuids; geography as sent). */
  value: Scalar | Scalar[] | boolean | object;
}

export interface RefQuery {
  investmentId?: string;
  filters: RefFilter[];
  sort?: { field: string; direction: 'asc' | 'desc' };
  page: number;
  size: number;
}

export function valueOf(offer: WorldOffer, field: string): unknown {
  switch (field) {
    case 'offer_id':
    case 'external_id':
    case 'agent_id':
    case 'branch_id':
    case 'investment_id':
    case 'version':
    case 'created_at':
    case 'updated_at':
    case 'price_changed_at':
    case 'price_change_pct':
      return offer[field];
    case 'available_from_date':
    case 'date_posted':
      return offer.dataTimes[field] ?? null;
    default:
      return offer.data[field] ?? null;
  }
}

function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function compare(a: Scalar, b: Scalar): number {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** The offer's position, for `location`; null without both coordinates. */
function pointOf(offer: WorldOffer): Point | null {
  const lat = offer.data.location_latitude;
  const lon = offer.data.location_longitude;
  return typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : null;
}

type Operand = RefFilter['value'];
/** Whether a value (null: none) passes an operator with `operand`; `kind` is the field's. */
type Matcher = (v: unknown, operand: Operand, kind: RefKind | undefined) => boolean;

/** Every operator but is_null leaves nulls out, ne and not_in included. */
const present =
  (test: (value: Scalar, operand: Operand) => boolean): Matcher =>
  (v, operand) =>
    v !== null && test(v as Scalar, operand);

const located = (test: (p: Point, operand: never) => boolean): Matcher => (v, operand) => v !== null && test(v as Point, operand as never);

const MATCHERS: { readonly [K in FilterOperator]: Matcher } = {
  eq: present((value, operand) => compare(value, operand as Scalar) === 0),
  ne: present((value, operand) => compare(value, operand as Scalar) !== 0),
  gt: present((value, operand) => compare(value, operand as Scalar) > 0),
  gte: present((value, operand) => compare(value, operand as Scalar) >= 0),
  lt: present((value, operand) => compare(value, operand as Scalar) < 0),
  lte: present((value, operand) => compare(value, operand as Scalar) <= 0),
  between: present((value, operand) => {
    const [low, high] = operand as Scalar[];
    return compare(value, low!) >= 0 && compare(value, high!) <= 0;
  }),
  in: present((value, operand) => (operand as Scalar[]).some((o) => compare(value, o) === 0)),
  not_in: present((value, operand) => (operand as Scalar[]).every((o) => compare(value, o) !== 0)),
  contains: present((value, operand) => (value as string).toLowerCase().includes((operand as string).toLowerCase())),
  starts_with: present((value, operand) => (value as string).toLowerCase().startsWith((operand as string).toLowerCase())),
  is_null: (v, operand, kind) => (kind === 'array' ? v === null || (Array.isArray(v) && v.length === 0) : v === null) === operand,
  within_radius: located((p, circle: Point & { km: number }) => distanceKm(circle, p) <= circle.km),
  within_bbox: located((p, box: { south: number; west: number; north: number; east: number }) => insideBox(p, box)),
  within_polygon: located((p, polygon: Array<[number, number]>) => insidePolygon(p, polygon)),
};

/** Whether an offer passes a filter (`location` is the offer's position). */
export function matchesFilter(offer: WorldOffer, filter: RefFilter): boolean {
  const match = (MATCHERS as Readonly<Record<string, Matcher>>)[filter.operator];
  if (match === undefined) throw new Error(`unknown operator ${filter.operator}`);
  const v = filter.field === 'location' ? pointOf(offer) : valueOf(offer, filter.field);
  return match(v, filter.value, REF_FIELDS[filter.field]?.kind);
}

export interface RefPage {
  ids: string[];
  total: number;
  pages: number;
}

export function evaluate(world: readonly WorldOffer[], organizationId: string, query: RefQuery): RefPage {
  const found = world.filter(
    (o) =>
      o.organization_id === organizationId &&
      o.is_active &&
      (query.investmentId === undefined || o.investment_id === query.investmentId) &&
      query.filters.every((f) => matchesFilter(o, f)),
  );
  const byId = (a: WorldOffer, b: WorldOffer) => compare(a.offer_id, b.offer_id);
  if (query.sort) {
    const { field, direction } = query.sort;
    found.sort((a, b) => {
      const x = valueOf(a, field) as Scalar | null;
      const y = valueOf(b, field) as Scalar | null;
      if (x === null && y === null) return byId(a, b);
      if (x === null) return 1;
      if (y === null) return -1;
      const c = compare(x, y);
      return c !== 0 ? (direction === 'asc' ? c : -c) : byId(a, b);
    });
  } else {
    found.sort((a, b) => compare(b.created_at, a.created_at) || byId(a, b));
  }
  const start = (query.page - 1) * query.size;
  return {
    ids: found.slice(start, start + query.size).map((o) => o.offer_id),
    total: found.length,
    pages: Math.ceil(found.length / query.size),
  };
}
