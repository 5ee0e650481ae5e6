/**
 * Translations (extension E12): the titles and descriptions of offers, and the names and
 * descriptions of investments, in other languages, from the bundle's `translations`
 * (`{"en": {"title", "description"}}`), served with `lang` field by field: a translated field where
 * the language has it, the original where it has not. Pure.
 *
 * Language tags are BCP 47 tags, compared in their canonical form (`EN-gb` is `en-GB`), as
 * Intl.getCanonicalLocales gives it, with a primary language subtag of two or three letters (an
 * ISO 639 code: the grammar's 5-8 letter subtags name no language anyone uses). A request's tag
 * must equal a stored one: `en-GB` does not fall back to `en`.
 */
/** The language of the original texts (the bundle's own fields): the agencies write Polish. */
export const ORIGINAL_LANGUAGE = 'pl';

/** A tag longer than this is not one anybody sends (the longest registered ones are about 20). */
export const MAX_TAG_LENGTH = 35;

/** Most languages one record may carry. */
export const MAX_LANGUAGES = 20;

/** The fields an offer's translation may give (description_clean_text follows description). */
export const OFFER_TRANSLATABLE = ['title', 'description'] as const;
/** The fields an investment's translation may give. */
export const INVESTMENT_TRANSLATABLE = ['name', 'description'] as const;

/** What an offer's stored translation holds: the given fields, and the plain text of its description. */
export interface OfferTranslation {
  readonly title?: string;
  readonly description?: string;
  readonly description_clean_text?: string;
}

export interface InvestmentTranslation {
  readonly name?: string;
  readonly description?: string;
}

/** The canonical form of a BCP 47 language tag, or undefined when it is not one. */
export function canonicalTag(tag: string): string | undefined {
  if (tag.length === 0 || tag.length > MAX_TAG_LENGTH) return undefined;
  let canonical: string | undefined;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
  if (canonical === undefined || !/^[a-z]{2,3}(-|$)/.test(canonical)) return undefined;
  return canonical;
}

/** Why a tag is refused (the import's problems and the API's 422 say the same). */
export function tagProblem(tag: string): string {
  return `'${tag}' is not a BCP 47 language tag (such as en, uk or en-GB)`;
}

type Given = Readonly<Record<string, Readonly<Record<string, string | null | undefined>> | null | undefined>>;

/** A record's translations in their stored form: canonical tags in order, only the fields given. */
function normalize(given: Given | null | undefined, fields: readonly string[], extra?: (out: Record<string, string>) => void): string | null {
  if (!given) return null;
  const out: Record<string, Record<string, string>> = {};
  for (const tag of Object.keys(given).map((t) => [t, canonicalTag(t)] as const).sort((a, b) => (a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0))) {
    const [original, canonical] = tag;
    const value = given[original];
    if (!value || canonical === undefined) continue;
    const fieldsOut: Record<string, string> = {};
    for (const field of fields) {
      const text = value[field];
      if (typeof text === 'string') fieldsOut[field] = text;
    }
    extra?.(fieldsOut);
    if (Object.keys(fieldsOut).length > 0) out[canonical] = { ...(out[canonical] ?? {}), ...fieldsOut };
  }
  return Object.keys(out).length > 0 ? JSON.stringify(out) : null;
}

/**
 * An offer record's translations as stored (JSON text, null when none): each language's
 * description gets its plain text (`cleanText`: the offers' description_clean_text rule), as the
 * original's does.
 */
export function normalizeOfferTranslations(given: Given | null | undefined, cleanText: (html: string) => string): string | null {
  return normalize(given, OFFER_TRANSLATABLE, (out) => {
    if (out.description !== undefined) out.description_clean_text = cleanText(out.description);
  });
}

/** An investment record's translations as stored (JSON text, null when none). */
export function normalizeInvestmentTranslations(given: Given | null | undefined): string | null {
  return normalize(given, INVESTMENT_TRANSLATABLE);
}

/** Two given tags of one record that name the same language (`en` and `EN`), for the import's problem. */
export function sameLanguageTags(tags: readonly string[]): Array<[string, string]> {
  const seen = new Map<string, string>();
  const clashes: Array<[string, string]> = [];
  for (const tag of tags) {
    const canonical = canonicalTag(tag);
    if (canonical === undefined) continue;
    const earlier = seen.get(canonical);
    if (earlier !== undefined) clashes.push([earlier, tag]);
    else seen.set(canonical, tag);
  }
  return clashes;
}

/**
 * The `Content-Language` of an answer to a request with `lang`: the requested tag when any
 * translated field was served, else the original's language.
 */
export function contentLanguage(lang: string, translatedAny: boolean): string {
  return translatedAny ? lang : ORIGINAL_LANGUAGE;
}

/** An investment with its translated fields (field by field; the original where none is given). */
export function translateInvestment<T extends { name: string; description: string | null }>(
  investment: T,
  translation: InvestmentTranslation | undefined,
): { value: T; translated: boolean } {
  if (!translation) return { value: investment, translated: false };
  const name = translation.name ?? investment.name;
  const description = translation.description ?? investment.description;
  const translated = translation.name !== undefined || translation.description !== undefined;
  return { value: translated ? { ...investment, name, description } : investment, translated };
}
