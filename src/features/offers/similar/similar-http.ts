/**
 * GET /api/v1/offers/{offer_id}/similar (extension E13): other active offers the caller may see, of
 * the offer's type, best first by the documented score (similar-score.ts), with `fields` as GET
 * offer takes them. JSON only. An offer the caller cannot see answers 404 as GET offer does.
 */
import Type from 'typebox';
import { keyedOperation, sendDetail, type KeyedContext, type PartReader } from '../../../http/operation.js';
import { readContentVersion } from '../../content-version/index.js';
import { offerColumnsLoader } from '../facets/columns-read.js';
import { rankSimilarFromColumns } from './similar-columns.js';
import type { OfferColumns } from '../facets/columns.js';
import { memoryCanAnswer, rowsFromMemory } from '../cards/memory-answers.js';
import { JSON_TYPE } from '../../../http/content-types.js';
import type { InputChecker } from '../../../http/validation/input-checker.js';
import { errorResponses } from '../../../http/schemas/error-responses.js';
import { offerToJsonBytes, type OfferView } from '../model.js';
import { checkQueryFields } from '../query/request.js';
import { OfferIdParams } from '../schemas.js';
import type { FieldSelection } from '../sparse-fields.js';
import { readSimilarityFacts } from './similar-read.js';
import { DEFAULT_SIMILAR_SIZE, HALF_SCORE_KM, MAX_SIMILAR_SIZE, rankSimilar, SIMILARITY_WEIGHTS, type ScoredOffer } from './similar-score.js';
import { SimilarQuery } from './similar-schemas.js';
import { checkLang, INVALID_LANG } from '../../translations/index.js';
import { sayLanguage } from '../http.js';

interface SimilarView {
  readonly items: readonly { readonly offer: OfferView; readonly score: number }[];
  readonly size: number;
}

const similarQuery: PartReader<{ size: number; fields: FieldSelection | undefined; lang: string | undefined }> = {
  schema: SimilarQuery,
  read: (check: InputChecker) => {
    const query = check.query<{ size?: number; fields?: string[]; lang?: string }>(SimilarQuery);
    const fields = checkQueryFields(check, query?.fields);
    const lang = checkLang(check, query?.lang, ['query', 'lang']);
    return query === undefined || lang === INVALID_LANG ? undefined : { size: query.size ?? DEFAULT_SIMILAR_SIZE, fields, lang };
  },
};

/** Each offer's JSON with `"score"` as its last key. */
function similarToJsonBytes(view: SimilarView): Buffer {
  const parts: Buffer[] = [Buffer.from('{"items":[')];
  view.items.forEach(({ offer, score }, i) => {
    const bytes = offerToJsonBytes(offer);
    parts.push(Buffer.from(i === 0 ? '' : ','), bytes.subarray(0, bytes.length - 1), Buffer.from(`,"score":${score}}`));
  });
  parts.push(Buffer.from(`],"size":${view.size}}`));
  return Buffer.concat(parts);
}

const w = SIMILARITY_WEIGHTS;
const DESCRIPTION =
  `Up to \`size\` (1 to ${MAX_SIMILAR_SIZE}, default ${DEFAULT_SIMILAR_SIZE}) other active offers this key may see, of the same ` +
  '`offer_type` (an offer without one: those without one), best first, each with its `score` (0 to 1, 4 decimals), ' +
  'ties by `offer_id`. The score is a weighted sum of five parts, each 0 when either offer lacks the value: ' +
  `same investment (${w.investment}), distance (${w.distance}; 1 / (1 + km / ${HALF_SCORE_KM})), ` +
  `price (${w.price}; 1 - |a - b| / max(a, b)), rooms (${w.rooms}; 1 - |a - b| / 2, at least 0) and ` +
  `property size (${w.size}; as price). Deterministic: the same data gives the same list. \`fields\` cuts each ` +
  'offer_data as on `GET /api/v1/offers/{offer_id}`, and `lang` serves the offers in that language as there (extension E12, ' +
  'with `Content-Language`); neither changes which offers are chosen. An offer this key cannot see answers 404, as there. JSON only.';

/**
 * The ranked neighbours of the offer: from the organization's in-memory columns at the current
 * content version when they hold it (one pass over its type's rows, keeping the best; the snapshot
 * is returned too, as its cards may give the offers shown), else from SQL. Undefined: the caller
 * cannot see the offer.
 */
async function rankedNeighbours(ctx: KeyedContext, offerId: string, size: number): Promise<{ ranked: ScoredOffer[]; columns?: OfferColumns } | undefined> {
  const cache = ctx.services.facetColumns;
  if (cache) {
    const version = await readContentVersion(ctx.db);
    if (version !== undefined) {
      const columns = await cache.get(ctx.caller.organizationId, version, offerColumnsLoader(ctx.db));
      if (columns) {
        const ranked = rankSimilarFromColumns(columns, ctx.caller, offerId, size);
        return ranked && { ranked, columns };
      }
    }
  }
  const facts = await readSimilarityFacts(ctx.db, ctx.caller, offerId);
  return facts && { ranked: rankSimilar(facts.base, facts.candidates, size) };
}

/**
 * The ranked offers' views: from the snapshot's cards when `fields` are all on them (no body read),
 * else by their ids (bodies from the offer body cache, the scope once more).
 */
async function rankedOffers(
  ctx: KeyedContext,
  columns: OfferColumns | undefined,
  offerIds: string[],
  fields: FieldSelection | undefined,
  lang: string | undefined,
): Promise<OfferView[]> {
  const request = { fields, lang };
  if (columns !== undefined && memoryCanAnswer(request)) {
    const rows = rowsFromMemory(columns, { scope: ctx.caller.scope }, offerIds, request.fields);
    if (rows !== undefined) return ctx.services.offers.viewsOfCards(ctx.caller, rows, new Set(), request.fields);
  }
  return ctx.services.offers.findMany(ctx.caller, offerIds, fields, lang);
}

export const similarOffersOperation = keyedOperation({
  operationId: 'similar_offers',
  summary: 'Offers similar to one offer',
  description: DESCRIPTION,
  tags: ['offers'],
  params: OfferIdParams,
  query: similarQuery,
  responses: {
    200: { description: 'Similar offers, best first', content: { 'application/json': { schema: Type.Ref('SimilarOffersResponse') } } },
    ...errorResponses('Offer not found'),
  },
  serializers: { 'application/json': (view: SimilarView) => similarToJsonBytes(view) },
  async handle({ params, query: { size, fields, lang } }, ctx) {
    const found = await rankedNeighbours(ctx, params.offer_id, size);
    if (!found) return sendDetail(ctx.reply, 404, 'Offer not found');
    // The serializer is picked by the answer's media type.
    ctx.reply.type(JSON_TYPE);
    const { ranked, columns } = found;
    const offers = ranked.length === 0 ? [] : await rankedOffers(ctx, columns, ranked.map((r) => r.offer_id), fields, lang);
    // With `lang` (E12), as GET offer.
    sayLanguage(ctx, lang, offers);
    const byId = new Map(offers.map((offer) => [offer.offer_id, offer]));
    // An offer changed by an import between the two reads is left out rather than shown stale.
    const items = ranked.flatMap(({ offer_id, score }) => {
      const offer = byId.get(offer_id);
      return offer ? [{ offer, score }] : [];
    });
    return { items, size } satisfies SimilarView;
  },
});
