/**
 * The last word of a search is looked up in the search vocabulary (search_lexemes,
 * src/features/offers/query/search-sql.ts): the answer must be the one a plain prefix gives, whether the
 * prefix stands for a few words (asked as exact words), for more than MAX_PREFIX_WORDS (asked as
 * a prefix), for words no offer has any more (the vocabulary only grows) or words of another
 * organization's offers (there is one vocabulary).
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PREFIX_WORDS } from '../../../src/features/offers/query/search-sql.js';
import { buildTestApp, post, type TestApp } from '../../helpers/app.js';
import { insertOffers, offerDataInput, ORG_A, ORG_B, uid } from '../../helpers/fixtures.js';
import { addSearchLexemes } from '../../../src/features/offers/write.js';

let t: TestApp;
const MANY = MAX_PREFIX_WORDS + 6;
/** `qqw0` … `qqw69`: one prefix standing for more words than the lookup takes. */
const manyWords = Array.from({ length: MANY }, (_, i) => `qqw${i}`);
const O = { many: uid('5eb1', 1), one: uid('5eb1', 2), other: uid('5eb1', 3) };

beforeAll(async () => {
  t = await buildTestApp({ env: { RESPONSE_CACHE: 'off' } });
  const offer = (offer_id: string, organization_id: string, title: string, description: string) => ({
    offer_id,
    organization_id,
    external_id: `V-${offer_id.slice(-2)}`,
    created_at: '2025-02-01T10:00:00Z',
    data: offerDataInput({ title, description_clean_text: description, description: null, address_street: null }),
  });
  await insertOffers(t.db.db, [
    offer(O.many, ORG_A, 'Zestaw słów', manyWords.join(' ')),
    offer(O.one, ORG_A, 'Jedno słowo', 'qqw9 strych'), // qqw9: the last of the qqw words in byte order
    offer(O.other, ORG_B, 'Strychowy loft', 'strychem'),
  ]);
});

const search = async (text: string) => {
  const res = await post(t, '/api/v1/offers', { pagination: { size: 100 }, search: text });
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json() as { total: number; items: { offer_id: string }[] };
  expect(page.total).toBe(page.items.length);
  return page.items.map((o) => o.offer_id).sort();
};

const vocabulary = async (prefix: string) =>
  (await sql<{ lexeme: string }>`select lexeme from search_lexemes where lexeme like ${`${prefix}%`} order by lexeme`.execute(t.db.db)).rows.map((r) => r.lexeme);

describe('the last word through the search vocabulary', () => {
  it('holds the words of the offers', async () => {
    expect(await vocabulary('qqw')).toEqual([...manyWords].sort());
    expect(await vocabulary('strych')).toEqual(['strych', 'strychem', 'strychowy']); // words and their stems
  });

  it('a prefix of more than MAX_PREFIX_WORDS words stays a prefix and finds them all', async () => {
    expect(await vocabulary('qqw')).toHaveLength(MANY);
    expect(await search('qqw')).toEqual([O.many, O.one].sort());
    expect(await search('zestaw qqw')).toEqual([O.many]);
  });

  it('a prefix of a few words finds the offers of any of them, and only of them', async () => {
    expect(await search('qqw5')).toEqual([O.many]); // qqw5, qqw50 … qqw59
    expect(await search('qqw9')).toEqual([O.many, O.one].sort());
    expect(await search('jedno qqw6')).toEqual([]);
    expect(await search('zestaw qqw69')).toEqual([O.many]);
    expect(await search('qqw70')).toEqual([]); // no such word
  });

  it('words no offer has any more, or of another organization\'s offers, change no answer', async () => {
    expect(await search('stry')).toEqual([O.one]); // strych here; strychem, strychowy are ORG_B's
    expect(await search('loft strych')).toEqual([]);
    await addSearchLexemes(t.db.db, ['stryj', 'stryjek']);
    expect(await search('stry')).toEqual([O.one]);
    expect(await search('jedno stry')).toEqual([O.one]);
    expect(await search('stryj')).toEqual([]);
  });
});
