/**
 * Reads the body of the cluster operations (extension E13): the lists' `filters` and `search`, the
 * map's `bbox` (required; the value of the `within_bbox` operator, checked the same way) and `zoom`
 * (required; an integer from 0 to 22). Every problem is reported at its place.
 */
import type { GeoBox, OfferFilter } from '../query/language.js';
import { issues } from '../../../http/validation/issues.js';
import type { InputChecker } from '../../../http/validation/input-checker.js';
import { laxInt } from '../../../http/validation/lax.js';
import { checkBodyObject, checkFilters, checkSearch, INVALID } from '../query/request.js';
import { checkGeoBox } from '../query/geo-request.js';
import { checkLang, INVALID_LANG } from '../../translations/index.js';
import { MAX_ZOOM, MIN_ZOOM } from './cluster-grid.js';

export interface OfferClustersRequest {
  filters: OfferFilter[];
  search?: string | undefined;
  /** With `search`, also the words of the translation into this language (extension E12), as the lists do. */
  lang?: string | undefined;
  bbox: GeoBox;
  zoom: number;
}

export function checkClustersBody(check: InputChecker): OfferClustersRequest | undefined {
  const body = checkBodyObject(check);
  if (!body) return undefined;
  const filters = checkFilters(check, body.filters);
  const search = checkSearch(check, body.search);
  const lang = checkLang(check, body.lang, ['body', 'lang']);
  let bbox: GeoBox | undefined;
  if (body.bbox === undefined || body.bbox === null) check.report(issues.missing(['body', 'bbox'], body));
  else bbox = checkGeoBox(check, body.bbox, ['body', 'bbox']);
  let zoom: number | undefined;
  const loc = ['body', 'zoom'];
  if (body.zoom === undefined || body.zoom === null) check.report(issues.missing(loc, body));
  else {
    const n = laxInt(body.zoom, loc);
    if (!n.ok) check.report(n.issue);
    else if (n.value < MIN_ZOOM) check.report(issues.greaterThanEqual(loc, body.zoom, MIN_ZOOM));
    else if (n.value > MAX_ZOOM) check.report(issues.lessThanEqual(loc, body.zoom, MAX_ZOOM));
    else zoom = n.value;
  }
  if (!filters || search === INVALID || lang === INVALID_LANG || !bbox || zoom === undefined) return undefined;
  return { filters, ...(search === undefined ? {} : { search }), ...(lang === undefined ? {} : { lang }), bbox, zoom };
}
