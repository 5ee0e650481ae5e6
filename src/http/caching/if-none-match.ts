/**
 * If-None-Match (RFC 9110 13.1.2): true when the header is `*` (any current representation) or
 * names one of the given entity tags, compared weakly (a `W/` prefix on either side is ignored).
 */
const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g;

export function ifNoneMatchHits(header: string | string[] | undefined, etags: readonly string[]): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return false;
  if (value.trim() === '*') return true;
  const opaque = etags.map((etag) => (etag.startsWith('W/') ? etag.slice(2) : etag));
  for (const match of value.matchAll(ENTITY_TAG)) {
    if (opaque.includes(`"${match[1]}"`)) return true;
  }
  return false;
}
