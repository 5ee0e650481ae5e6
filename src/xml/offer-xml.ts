/** XML renderings of the offer operations (CONTRACT 5). Placeholder until the XML work lands. */
import type { OfferView, OffersPageView } from '../domain/offer-view.js';

/** A whole XML document (declaration included) for one offer: root <offer>. */
export function offerToXml(_offer: OfferView): string {
  throw new Error('not implemented');
}

/** A whole XML document for an offer page: root <offers>. */
export function offersPageToXml(_page: OffersPageView): string {
  throw new Error('not implemented');
}
