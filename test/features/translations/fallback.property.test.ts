/**
 * Field-by-field fallback (extension E12), as a property: for random offers and investments and
 * random translations (random languages, each with a random subset of the translatable fields),
 * every field served in a language is that language's translation where it gives the field, else
 * the original; description_clean_text follows description; no other byte of offer_data changes,
 * nor its key order; the full and the sparse paths agree; the stored form takes tags in any letter case.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToCleanText, normalizeOfferData, renderOfferDataJson } from '../../../src/features/offers/index.js';
import { fieldTextsOf, selectionOf, sparseJson, SPARSE_FIELD_NAMES } from '../../../src/features/offers/sparse-fields.js';
import { translatedFieldTexts, translatedOfferData } from '../../../src/features/offers/translated.js';
import {
  canonicalTag,
  normalizeInvestmentTranslations,
  normalizeOfferTranslations,
  translateInvestment,
  type InvestmentTranslation,
  type OfferTranslation,
} from '../../../src/features/translations/index.js';

const TAGS = ['en', 'EN', 'uk', 'de', 'en-GB', 'fr', 'zh-Hant'];
const text = fc.oneof(fc.string(), fc.constantFrom('<p>Bright <b>flat</b></p>', 'Сонячна квартира', '"quoted" \\ and \u2028'));
const offerTranslation = fc.record({ title: fc.option(text, { nil: undefined }), description: fc.option(text, { nil: undefined }) }, { requiredKeys: [] });
const translations = fc.dictionary(fc.constantFrom(...TAGS), offerTranslation, { maxKeys: 4 });

describe('translations fall back field by field', () => {
  it('offers: each served field is the translation when given, else the original', () => {
    fc.assert(
      fc.property(text, text, translations, fc.constantFrom(...TAGS), fc.subarray([...SPARSE_FIELD_NAMES.keys()], { minLength: 1 }), (title, description, given, asked, sparse) => {
        const offerId = '6f0a3c3e-8d0b-4c8e-9a49-0d8f8f9d3e11';
        const stored = renderOfferDataJson(normalizeOfferData({ title, description, price: 1 }, { offer_id: offerId, external_id: 'X' }));
        const storedForm = normalizeOfferTranslations(given, htmlToCleanText);
        const lang = canonicalTag(asked)!;
        const translation = storedForm === null ? undefined : (JSON.parse(storedForm) as Record<string, OfferTranslation>)[lang];
        const original = JSON.parse(stored) as Record<string, unknown>;
        const served = translation ? (JSON.parse(translatedOfferData(Buffer.from(stored), translation).toString()) as Record<string, unknown>) : original;

        // What the record gave for this language, whatever the letter case of its tag (later spellings win).
        const wanted: { title?: string; description?: string } = {};
        for (const [tag, fields] of Object.entries(given).sort((a, b) => (canonicalTag(a[0])! < canonicalTag(b[0])! ? -1 : 1))) {
          if (canonicalTag(tag) !== lang) continue;
          if (fields.title !== undefined) wanted.title = fields.title;
          if (fields.description !== undefined) wanted.description = fields.description;
        }
        expect(served.title).toBe(wanted.title ?? original.title);
        expect(served.description).toBe(wanted.description ?? original.description);
        expect(served.description_clean_text).toBe(wanted.description !== undefined ? htmlToCleanText(wanted.description) : original.description_clean_text);
        expect(Object.keys(served)).toEqual(Object.keys(original));
        for (const key of Object.keys(original)) {
          if (!['title', 'description', 'description_clean_text'].includes(key)) expect(served[key]).toEqual(original[key]);
        }
        // The sparse path gives the same fields.
        const selection = selectionOf(sparse);
        const texts = fieldTextsOf(stored);
        const cut = JSON.parse(sparseJson(translation ? translatedFieldTexts(texts, translation) : texts, selection)) as Record<string, unknown>;
        for (const name of selection.names) expect(cut[name]).toEqual(served[name]);
      }),
      { numRuns: 300 },
    );
  });

  it('investments: name and description, each the translation when given, else the original', () => {
    const investmentTranslation = fc.record({ name: fc.option(text, { nil: undefined }), description: fc.option(text, { nil: undefined }) }, { requiredKeys: [] });
    fc.assert(
      fc.property(text, fc.option(text, { nil: null }), fc.dictionary(fc.constantFrom('en', 'uk'), investmentTranslation, { maxKeys: 2 }), fc.constantFrom('en', 'uk', 'de'), (name, description, given, lang) => {
        const storedForm = normalizeInvestmentTranslations(given);
        const translation = storedForm === null ? undefined : (JSON.parse(storedForm) as Record<string, InvestmentTranslation>)[lang];
        const { value, translated } = translateInvestment({ investment_id: 'i', name, description, is_active: true }, translation);
        const wanted = given[lang];
        expect(value.name).toBe(wanted?.name ?? name);
        expect(value.description).toBe(wanted?.description ?? description);
        expect(translated).toBe(wanted?.name !== undefined || wanted?.description !== undefined);
        expect(value.investment_id).toBe('i');
      }),
      { numRuns: 300 },
    );
  });

  it('language tags: canonical, or refused', () => {
    expect(canonicalTag('EN-gb')).toBe('en-GB');
    expect(canonicalTag('uk')).toBe('uk');
    for (const bad of ['', 'en_US', 'english', '123', 'x-private', 'en-', 'a'.repeat(40)]) expect(canonicalTag(bad)).toBeUndefined();
  });
});
