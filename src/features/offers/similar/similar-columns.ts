/**
 * "Similar offers" (extension E13) from the organization's offers held in memory as columns (the
 * facets' columns, facets/columns.ts, which hold every field the score reads): the same facts as
 * similar-read.ts reads from the database, without reading thousands of table rows per call.
 * Pure: the columns are a snapshot of the content version the database holds now.
 */
import type { Visibility } from '../../access/index.js';
import { matchingRows, type OfferColumns } from '../facets/columns.js';
import type { SimilarityFacts } from './similar-score.js';

const orNull = (x: number) => (x !== x ? null : x);

/**
 * The offer and its same-type neighbours the caller may see (active, in the website's scope), as
 * the score reads them; undefined when the caller cannot see the offer.
 */
export function similarityFactsFromColumns(
  columns: OfferColumns,
  visibility: Visibility,
  offerId: string,
): { base: SimilarityFacts; candidates: SimilarityFacts[] } | undefined {
  const wanted = offerId.toLowerCase();
  const visible = matchingRows(columns, [], { scope: visibility.scope });
  const index = columns.ids.indexOf(wanted);
  if (index < 0 || visible[index] !== 0) return undefined;
  const types = columns.coded['offer_data:offer_type'].codes;
  const investments = columns.coded['offer:investment_id'];
  const n = columns.numbers;
  const facts = (i: number): SimilarityFacts => {
    const investment = investments.codes[i]!;
    return {
      offer_id: columns.ids[i]!,
      investment_id: investment < 0 ? null : (investments.values[investment] as string),
      latitude: orNull(n['offer_data:location_latitude'][i]!),
      longitude: orNull(n['offer_data:location_longitude'][i]!),
      price: orNull(n['offer_data:price'][i]!),
      rooms: orNull(n['offer_data:rooms'][i]!),
      property_size: orNull(n['offer_data:property_size'][i]!),
    };
  };
  // Equal codes, equal types (-1: no type, as the others without one).
  const type = types[index]!;
  const candidates: SimilarityFacts[] = [];
  for (let i = 0; i < columns.rows; i++) if (i !== index && visible[i] === 0 && types[i] === type) candidates.push(facts(i));
  return { base: facts(index), candidates };
}
