/**
 * "Did you mean …?" for a name that is not known: the known name that contains the given one as a
 * word (`city` → `address_city`), else the nearest by edit distance when it is near enough. Shared
 * by the API's 422 details and the import's problems, so both suggest the same name.
 */

/** Levenshtein distance, two rows at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The known name closest to `name`, or undefined when none is close. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const wanted = name.trim().toLowerCase().replace(/^offer_data\./, '').replace(/[\s-]+/g, '_');
  if (wanted === '' || wanted.length > 64) return undefined;
  const exact = known.find((k) => k === wanted);
  if (exact) return exact;
  // A whole word of a known name (city → address_city, balcony → has_balcony), or the other way
  // round (rooms_count → rooms).
  const byWord = known.filter(
    (k) => k.split('_').includes(wanted) || k.endsWith(`_${wanted}`) || k.startsWith(`${wanted}_`) || wanted.startsWith(`${k}_`),
  );
  if (byWord.length > 0) return byWord.reduce((best, k) => (k.length < best.length ? k : best));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const distance = editDistance(wanted, k);
    if (distance < bestDistance) {
      best = k;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(wanted.length / 3)) ? best : undefined;
}

/** "unknown field 'city'; did you mean 'address_city'?" when a known name is close. */
export function withSuggestion(reason: string, name: string, known: readonly string[]): string {
  const suggestion = closestName(name, known);
  return suggestion === undefined || suggestion === name ? reason : `${reason}; did you mean '${suggestion}'?`;
}
