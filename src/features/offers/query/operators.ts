/**
 * The operators of the offer filter language, one record each: the kinds of field that take it,
 * the shape of its value (with the checker that reads it), the request schema that lists it, how
 * the in-memory facet columns evaluate it, and its line in the docs. Everything else is derived
 * from this table: the operators of each kind (OPERATORS_BY_KIND, in the table's order), the
 * schemas' operator lists, the typed filter (OfferFilter), the request checks (request.ts), the
 * facet columns (facets/columns.ts), /meta and the docs (descriptions.ts).
 *
 * Its SQL is the one half kept apart, in operators-sql.ts (SQL lives in files named for it): a
 * record there per operator, which the compiler asks for. Adding an operator: docs/development.md.
 */
import {
  FLAG,
  listShape,
  MAX_LIST_VALUES,
  PAIR,
  SCALAR,
  type FilterScalar,
  type OfferField,
  type QueryFieldKind,
  type ValueShape,
} from './values.js';
import { BOX, POLYGON, RADIUS } from './geo-request.js';

/** The request schema whose `operator` list holds an operator (schemas.ts has one per name). */
export type FilterSchemaName = 'Filter' | 'GeoFilter';

/**
 * How the in-memory facet columns evaluate a filter, with SQL's meaning exactly (a null never
 * passes a comparison; `ne` and `not_in` leave nulls out). Each form the operator can be answered
 * on; a form left out (or `columns: undefined`) sends the request to SQL.
 */
export interface ColumnTests<V> {
  /** A number column (NaN for null): set `bit` in `mask` for every row where the filter fails. */
  readonly numbers?: (x: Float64Array, value: V, mask: Uint16Array, bit: number) => void;
  /**
   * A coded column: set `passes[code + 1]` (index 0: null) for every code that passes. `codes`
   * gives the codes of values (none for a value that no row holds).
   */
  readonly coded?: (passes: Uint8Array, value: V, codes: (values: readonly FilterScalar[]) => readonly number[]) => void;
}

export interface Operator<V, S extends FilterSchemaName = FilterSchemaName> {
  /** The kinds of field that take it (each kind lists its operators in the table's order). */
  readonly kinds: readonly QueryFieldKind[];
  readonly value: ValueShape<V>;
  readonly schema: S;
  readonly columns: ColumnTests<V> | undefined;
  /**
   * What it matches: a line of /openapi.json's filter prose for the operators on stored fields
   * (neighbours with the same line share it), the "matches" column of docs/api.md's geography
   * table for the others (test/features/offers/query/operators.test.ts holds the docs to it).
   */
  readonly doc: string;
}

const operator = <V, const S extends FilterSchemaName>(record: Operator<V, S>): Operator<V, S> => record;

const ORDERED: readonly QueryFieldKind[] = ['number', 'integer', 'datetime', 'datetime_ms', 'datetime_offset'];
/** Kinds with equality: the ordered ones, text, enumerations, ids and booleans. */
const EQUALITY: readonly QueryFieldKind[] = [...ORDERED, 'text', 'enum', 'uuid', 'boolean'];
/** Kinds whose values a list names (booleans have only two). */
const LISTED: readonly QueryFieldKind[] = [...ORDERED, 'text', 'enum', 'uuid'];
/** Every stored kind: a field may lack a value. */
const STORED: readonly QueryFieldKind[] = [...EQUALITY, 'url_list'];

const LIST = listShape(1, MAX_LIST_VALUES);

const COMPARE = 'compare with one value. `ne` does not match offers without a value.';
const TEXT_SEARCH = 'text search ignoring letter case; `%` and `_` are ordinary characters.';
const LISTS = `a list of 1 to ${MAX_LIST_VALUES} values. \`not_in\` does not match offers without a value.`;

/**
 * The table. Its order is each kind's order of operators (422 messages, /meta, the docs); the
 * original interface's list (FILTER_OPERATORS) keeps its own order.
 */
export const OPERATORS = {
  eq: operator({
    kinds: EQUALITY,
    value: SCALAR,
    schema: 'Filter',
    columns: {
      numbers: (x, value, mask, bit) => {
        for (let i = 0; i < x.length; i++) if (!(x[i] === value)) mask[i]! |= bit;
      },
      coded: (passes, value, codes) => {
        for (const code of codes([value])) passes[code + 1] = 1;
      },
    },
    doc: COMPARE,
  }),
  ne: operator({
    kinds: EQUALITY,
    value: SCALAR,
    schema: 'Filter',
    columns: {
      // `x === x` leaves nulls (NaN) out, as SQL's <> does.
      numbers: (x, value, mask, bit) => {
        for (let i = 0; i < x.length; i++) if (!(x[i] !== value && x[i] === x[i])) mask[i]! |= bit;
      },
      coded: (passes, value, codes) => {
        passes.fill(1, 1);
        for (const code of codes([value])) passes[code + 1] = 0;
      },
    },
    doc: COMPARE,
  }),
  gt: operator({
    kinds: ORDERED,
    value: SCALAR,
    schema: 'Filter',
    columns: {
      numbers: (x, value, mask, bit) => {
        const v = value as number;
        for (let i = 0; i < x.length; i++) if (!(x[i]! > v)) mask[i]! |= bit;
      },
    },
    doc: COMPARE,
  }),
  gte: operator({
    kinds: ORDERED,
    value: SCALAR,
    schema: 'Filter',
    columns: {
      numbers: (x, value, mask, bit) => {
        const v = value as number;
        for (let i = 0; i < x.length; i++) if (!(x[i]! >= v)) mask[i]! |= bit;
      },
    },
    doc: COMPARE,
  }),
  lt: operator({
    kinds: ORDERED,
    value: SCALAR,
    schema: 'Filter',
    columns: {
      numbers: (x, value, mask, bit) => {
        const v = value as number;
        for (let i = 0; i < x.length; i++) if (!(x[i]! < v)) mask[i]! |= bit;
      },
    },
    doc: COMPARE,
  }),
  lte: operator({
    kinds: ORDERED,
    value: SCALAR,
    schema: 'Filter',
    columns: {
      numbers: (x, value, mask, bit) => {
        const v = value as number;
        for (let i = 0; i < x.length; i++) if (!(x[i]! <= v)) mask[i]! |= bit;
      },
    },
    doc: COMPARE,
  }),
  between: operator({
    kinds: ORDERED,
    value: PAIR,
    schema: 'Filter',
    columns: {
      numbers: (x, value, mask, bit) => {
        const [low, high] = value as readonly [number, number];
        for (let i = 0; i < x.length; i++) if (!(x[i]! >= low && x[i]! <= high)) mask[i]! |= bit;
      },
    },
    doc: '`[low, high]`, both ends included.',
  }),
  in: operator({
    kinds: LISTED,
    value: LIST,
    schema: 'Filter',
    columns: {
      numbers: (x, value, mask, bit) => {
        const set = new Set(value as readonly number[]);
        for (let i = 0; i < x.length; i++) if (!set.has(x[i]!)) mask[i]! |= bit;
      },
      coded: (passes, value, codes) => {
        for (const code of codes(value)) passes[code + 1] = 1;
      },
    },
    doc: LISTS,
  }),
  not_in: operator({
    kinds: LISTED,
    value: LIST,
    schema: 'Filter',
    columns: {
      numbers: (x, value, mask, bit) => {
        const set = new Set(value as readonly number[]);
        for (let i = 0; i < x.length; i++) if (!(x[i] === x[i] && !set.has(x[i]!))) mask[i]! |= bit;
      },
      coded: (passes, value, codes) => {
        passes.fill(1, 1);
        for (const code of codes(value)) passes[code + 1] = 0;
      },
    },
    doc: LISTS,
  }),
  // SQL lower-cases by the database's locale, which the columns cannot reproduce exactly.
  contains: operator({ kinds: ['text'], value: SCALAR, schema: 'Filter', columns: undefined, doc: TEXT_SEARCH }),
  starts_with: operator({ kinds: ['text'], value: SCALAR, schema: 'Filter', columns: undefined, doc: TEXT_SEARCH }),
  is_null: operator({
    kinds: STORED,
    value: FLAG,
    schema: 'Filter',
    columns: {
      // NaN is null, and the only value unequal to itself.
      numbers: (x, value, mask, bit) => {
        for (let i = 0; i < x.length; i++) if ((x[i] !== x[i]) !== value) mask[i]! |= bit;
      },
      coded: (passes, value) => {
        if (value) passes[0] = 1;
        else passes.fill(1, 1);
      },
    },
    doc: '`true` (no value; for arrays: absent or empty) or `false`.',
  }),
  // Geography (extension E2): the virtual field `location`, on the typed coordinate columns.
  within_radius: operator({
    kinds: ['geo_point'],
    value: RADIUS,
    schema: 'GeoFilter',
    columns: undefined,
    doc: 'great-circle distance (mean Earth radius 6371.0088 km) at most `km`',
  }),
  within_bbox: operator({
    kinds: ['geo_point'],
    value: BOX,
    schema: 'GeoFilter',
    columns: undefined,
    doc: 'inside the box; `west` > `east` crosses the antimeridian; `south` > `north` is a 422',
  }),
  within_polygon: operator({
    kinds: ['geo_point'],
    value: POLYGON,
    schema: 'GeoFilter',
    columns: undefined,
    doc: 'inside the polygon or on its edge, as a plane figure in degrees (right for map areas; not for polygons across the antimeridian or around a pole)',
  }),
};

type Table = typeof OPERATORS;
export type FilterOperator = keyof Table;
/** The value an operator's filter holds once read (for a union of operators: the union of their values). */
export type OperatorValue<K extends FilterOperator> = K extends FilterOperator ? (Table[K] extends Operator<infer V, FilterSchemaName> ? V : never) : never;
/** The operators a request schema lists. */
export type OperatorsOf<S extends FilterSchemaName> = { [K in FilterOperator]: Table[K]['schema'] extends S ? K : never }[FilterOperator];

/** A checked filter of one operator. */
export interface OperatorFilter<K extends FilterOperator> {
  readonly field: OfferField;
  readonly operator: K;
  readonly value: OperatorValue<K>;
}
export type OfferFilter = { [K in FilterOperator]: OperatorFilter<K> }[FilterOperator];

/** The operators, in the table's order. */
export const ALL_OPERATORS = Object.keys(OPERATORS) as FilterOperator[];

export const isFilterOperator = (name: unknown): name is FilterOperator => typeof name === 'string' && Object.hasOwn(OPERATORS, name);

/** An operator's record, typed with its value (for a union of operators: the union of their values). */
export function operatorRecord<K extends FilterOperator>(name: K): Operator<OperatorValue<K>> {
  return OPERATORS[name] as unknown as Operator<OperatorValue<K>>;
}

/**
 * The operators of the original interface, in its order: the literal list of the Filter schema,
 * quoted by every 422 `literal_error` for an unknown operator and by /openapi.json. Frozen: a new
 * operator goes in a schema of its own (as the geography did), else the original answers change.
 */
export const FILTER_OPERATORS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'in',
  'not_in',
  'is_null',
  'contains',
  'starts_with',
] as const;

// Compile-time: the frozen list holds exactly the records whose schema is 'Filter'. An error here
// ("'true' is not assignable to type 'false'") means a record names 'Filter' but is not in the
// list: give it a schema of its own.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const filterSchemaKeepsTheOriginalList: Same<(typeof FILTER_OPERATORS)[number], OperatorsOf<'Filter'>> = true;
void filterSchemaKeepsTheOriginalList;

/** The operators whose record names `schema`, in the table's order. */
export const operatorsOfSchema = <S extends FilterSchemaName>(schema: S): OperatorsOf<S>[] =>
  ALL_OPERATORS.filter((name): name is OperatorsOf<S> => OPERATORS[name].schema === schema);

/** Each request schema's operators: the Filter schema's in the original order, the others in the table's. */
export const SCHEMA_OPERATORS: { readonly [S in FilterSchemaName]: readonly OperatorsOf<S>[] } = {
  Filter: FILTER_OPERATORS,
  GeoFilter: operatorsOfSchema('GeoFilter'),
};

/** Geography (extension E2): operators of the virtual field `location`. */
export const GEO_OPERATORS = SCHEMA_OPERATORS.GeoFilter;
export type GeoOperator = OperatorsOf<'GeoFilter'>;

const takenBy = (kind: QueryFieldKind): readonly FilterOperator[] => ALL_OPERATORS.filter((name) => OPERATORS[name].kinds.includes(kind));

/** Which operators each kind of field takes, in the table's order (CONTRACT 6; geo_point: extension E2). */
export const OPERATORS_BY_KIND: Readonly<Record<QueryFieldKind, readonly FilterOperator[]>> = {
  number: takenBy('number'),
  integer: takenBy('integer'),
  datetime: takenBy('datetime'),
  datetime_ms: takenBy('datetime_ms'),
  datetime_offset: takenBy('datetime_offset'),
  text: takenBy('text'),
  enum: takenBy('enum'),
  uuid: takenBy('uuid'),
  boolean: takenBy('boolean'),
  url_list: takenBy('url_list'),
  geo_point: takenBy('geo_point'),
};
