/**
 * The folding and stemming tables of full-text search, as the SQL functions ecs_search_fold and
 * ecs_search_stem use them and the import's TypeScript twin (src/features/offers/query/search-text.ts)
 * reads them. Migration 2026_11_24_0003 keeps its own frozen copy, from which it made the functions.
 */
/** Letters with diacritics (lower and upper case) and what they fold to, one for one. */
export const FOLD_FROM = 'ąćęłńóśźżĄĆĘŁŃÓŚŹŻáàâäãåāčçďéèêëěēíìîïīľĺňñôöõőøřšťúùûüůűūýÿžÁÀÂÄÃÅĀČÇĎÉÈÊËĚĒÍÌÎÏĪĽĹŇÑÔÖÕŐØŘŠŤÚÙÛÜŮŰŪÝŸŽß';
/** Letters that are not a base letter plus a combining mark. */
const NOT_COMPOSED: Readonly<Record<string, string>> = { ł: 'l', Ł: 'l', ø: 'o', Ø: 'o', ß: 's' };
export const FOLD_TO = [...FOLD_FROM]
  .map((c) => NOT_COMPOSED[c] ?? c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase())
  .join('');

/**
 * Polish inflection endings (after folding), stripped from words of at least 3 letters that remain.
 * The regular expression takes the longest ending (its stem part is lazy).
 */
export const STEM_ENDINGS = [
  'owie', 'iami', 'iach', 'ami', 'ach', 'owi', 'owa', 'owe', 'owy', 'ego', 'emu', 'ych', 'ich', 'ymi', 'imi', 'iej',
  'ie', 'ia', 'iu', 'ii', 'em', 'om', 'ow', 'ej', 'ym', 'im', 'a', 'e', 'i', 'o', 'u', 'y',
] as const;
