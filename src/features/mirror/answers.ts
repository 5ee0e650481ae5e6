/**
 * What `mirror` accepts as an answer of the original interface, derived from the resource schemas
 * of src/contract/resources.ts (one definition of every field's type). They are the interface's
 * shapes, read the way the interface allows: a field it calls optional may be absent as well as
 * null, and a field we do not know is ignored (the records take an allow-list of fields). A value
 * of the wrong type, a missing required field or a wrong envelope is a malformed answer.
 */
import Type, { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import {
  AgentSchema,
  BranchSchema,
  InvestmentSchema,
  LocationSchema,
  Nullable,
  OfferDataSchema,
  OfferSchema,
  OffersPageSchema,
  OpenTimeSchema,
  OrganizationSchema,
} from '../../contract/resources.js';
import { MirrorError } from './mirror-errors.js';

const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const LocationAnswer = Type.Partial(LocationSchema);
const OpenTimeAnswer = Type.Partial(OpenTimeSchema);

export const OrganizationAnswer = Type.Object({
  ...Type.Partial(OrganizationSchema).properties,
  organization_id: OrganizationSchema.properties.organization_id,
  name: OrganizationSchema.properties.name,
  location: Maybe(LocationAnswer),
});

export const BranchAnswer = Type.Object({
  ...Type.Partial(BranchSchema).properties,
  branch_id: BranchSchema.properties.branch_id,
  webpage_id: BranchSchema.properties.webpage_id,
  organization_id: BranchSchema.properties.organization_id,
  name: BranchSchema.properties.name,
  open_time: Maybe(OpenTimeAnswer),
  location: Maybe(LocationAnswer),
});

/** The interface does not say which agent fields are required: only the id is. */
export const AgentAnswer = Type.Object({
  ...Type.Partial(AgentSchema).properties,
  agent_id: AgentSchema.properties.agent_id,
});

/** The interface does not say which investment fields are required: the id, and a name to store. */
export const InvestmentAnswer = Type.Object({
  ...Type.Partial(InvestmentSchema).properties,
  investment_id: InvestmentSchema.properties.investment_id,
  name: InvestmentSchema.properties.name,
});

export const OfferAnswer = Type.Object({
  offer_id: OfferSchema.properties.offer_id,
  external_id: OfferSchema.properties.external_id,
  created_at: OfferSchema.properties.created_at,
  updated_at: OfferSchema.properties.updated_at,
  offer_data: Type.Partial(OfferDataSchema),
  version: OfferSchema.properties.version,
  agent: Maybe(AgentAnswer),
  branch: Maybe(BranchAnswer),
  organization: Maybe(OrganizationAnswer),
  investment: Maybe(InvestmentAnswer),
});

export const OffersPageAnswer = Type.Object({
  items: Type.Array(OfferAnswer),
  page: OffersPageSchema.properties.page,
  size: OffersPageSchema.properties.size,
  total: Type.Integer({ minimum: 0 }),
  pages: Type.Integer({ minimum: 0 }),
});

export const BranchListAnswer = Type.Array(BranchAnswer);
export const AgentListAnswer = Type.Array(AgentAnswer);
export const InvestmentListAnswer = Type.Array(InvestmentAnswer);
/** Investments are a plain array in the interface; a paged envelope is read page by page. */
export const InvestmentPageAnswer = Type.Object({
  items: InvestmentListAnswer,
  page: Type.Integer({ minimum: 1 }),
  pages: Type.Integer({ minimum: 0 }),
});

export type OrganizationValue = Record<string, unknown> & { organization_id: string; name: string };
export type EntityValue = Record<string, unknown>;
export type OfferValue = {
  offer_id: string;
  external_id: string;
  created_at: string;
  updated_at: string;
  offer_data: Record<string, unknown>;
  version: number;
  agent?: EntityValue | null;
  branch?: EntityValue | null;
  organization?: EntityValue | null;
  investment?: EntityValue | null;
};
export type OffersPageValue = { items: OfferValue[]; page: number; size: number; total: number; pages: number };

// A checker per schema, compiled once.
const checkers = new Map<TSchema, ReturnType<typeof Compile>>();
function checkerOf(schema: TSchema): ReturnType<typeof Compile> {
  let checker = checkers.get(schema);
  if (!checker) {
    checker = Compile(schema);
    checkers.set(schema, checker);
  }
  return checker;
}

/** "/items/3/offer_data/price" as "items[3].offer_data.price". */
function pointerToPath(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return path;
}

/** The value if it has the shape; a MirrorError naming the request and the first problem if not. */
export function checkAnswer<T>(schema: TSchema, value: unknown, where: string): T {
  const checker = checkerOf(schema);
  if (checker.Check(value)) return value as T;
  const first = [...checker.Errors(value)][0];
  const problem = first ? `${pointerToPath(first.instancePath) || 'the answer'}: ${first.message}` : 'unexpected shape';
  throw new MirrorError(`malformed answer from ${where}: ${problem}`);
}
