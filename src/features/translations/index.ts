/**
 * The translations wing (extension E12): language tags, the stored form of a record's
 * `translations`, and the field-by-field fallback. The offers and the catalog serve them with
 * `lang`; the import stores them (offers.translations, investments.translations).
 */
export {
  canonicalTag,
  contentLanguage,
  INVESTMENT_TRANSLATABLE,
  MAX_LANGUAGES,
  MAX_TAG_LENGTH,
  normalizeInvestmentTranslations,
  normalizeOfferTranslations,
  OFFER_TRANSLATABLE,
  ORIGINAL_LANGUAGE,
  sameLanguageTags,
  tagProblem,
  translateInvestment,
} from './model.js';
export type { InvestmentTranslation, OfferTranslation } from './model.js';
export { checkLang, INVALID_LANG, LANG_DESCRIPTION, LangSchema, SearchLangSchema } from './request.js';
