import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, post, type TestApp } from '../../helpers/app.js';
import { AGENT, BRANCH, INVESTMENT, OFFER } from '../../helpers/fixtures.js';

/** Active offers of organization A (see fixtures.ts), for reading the expectations below:
 *  krakowFull   780000, 3 rooms, Kraków, balcony, agent nowak, branch krakow, investment zielone, version 3
 *  krakowCheap  420000, 2 rooms, Kraków, no balcony, title "Kawalerka 100% okazja_super", agent kowalskaAnna
 *  warszawa    1250000, 4 rooms, Warszawa, SECONDARY, available 2025-06-01, agent noBranch, branch warszawa
 *  nulls        almost everything null, photos_urls [], HOUSE_SALES
 *  inactiveInvestment 990000, 3 rooms, Kraków, investment wisla
 *  gdansk       560000, 2 rooms, Gdańsk, SECONDARY, APARTMENT_RENTALS, external_id lower case
 */
describe('offer filters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  async function matching(...filters: { field: string; operator: string; value?: unknown }[]): Promise<string[]> {
    const res = await post(t, '/api/v1/offers', { pagination: { size: 100 }, sorting: { field: 'external_id' }, filters });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: { offer_id: string }[] }).items.map((o) => o.offer_id).sort();
  }
  const sorted = (...ids: string[]) => [...ids].sort();

  it('compares numbers: eq, ne (no nulls), gt, gte, lt, lte, between (inclusive)', async () => {
    expect(await matching({ field: 'price', operator: 'eq', value: 780000 })).toEqual([OFFER.krakowFull]);
    expect(await matching({ field: 'price', operator: 'ne', value: 780000 })).toEqual(
      sorted(OFFER.krakowCheap, OFFER.warszawa, OFFER.inactiveInvestment, OFFER.gdansk),
    );
    expect(await matching({ field: 'price', operator: 'gt', value: 780000 })).toEqual(sorted(OFFER.warszawa, OFFER.inactiveInvestment));
    expect(await matching({ field: 'price', operator: 'gte', value: 780000 })).toEqual(
      sorted(OFFER.krakowFull, OFFER.warszawa, OFFER.inactiveInvestment),
    );
    expect(await matching({ field: 'price', operator: 'lt', value: 560000 })).toEqual([OFFER.krakowCheap]);
    expect(await matching({ field: 'price', operator: 'lte', value: '560000' })).toEqual(sorted(OFFER.krakowCheap, OFFER.gdansk));
    expect(await matching({ field: 'price', operator: 'between', value: [560000, 780000] })).toEqual(sorted(OFFER.gdansk, OFFER.krakowFull));
    expect(await matching({ field: 'price', operator: 'between', value: [780000, 560000] })).toEqual([]);
  });

  it('compares integers, including fields without a typed column', async () => {
    expect(await matching({ field: 'rooms', operator: 'in', value: [2, 4] })).toEqual(sorted(OFFER.krakowCheap, OFFER.gdansk, OFFER.warszawa));
    expect(await matching({ field: 'rooms', operator: 'not_in', value: [2, 4] })).toEqual(sorted(OFFER.krakowFull, OFFER.inactiveInvestment));
    expect(await matching({ field: 'year_built', operator: 'eq', value: 2024 })).toHaveLength(5);
    expect(await matching({ field: 'administrative_rent', operator: 'gt', value: 450 })).toHaveLength(5);
    expect(await matching({ field: 'administrative_rent', operator: 'gt', value: 450.5 })).toEqual([]);
    expect(await matching({ field: 'version', operator: 'gte', value: 2 })).toEqual([OFFER.krakowFull]);
  });

  it('matches text exactly with eq / in, and ignoring case with contains / starts_with', async () => {
    expect(await matching({ field: 'address_city', operator: 'eq', value: 'Kraków' })).toEqual(
      sorted(OFFER.krakowFull, OFFER.krakowCheap, OFFER.inactiveInvestment),
    );
    expect(await matching({ field: 'address_city', operator: 'eq', value: 'kraków' })).toEqual([]);
    expect(await matching({ field: 'address_city', operator: 'in', value: ['Gdańsk', 'Warszawa'] })).toEqual(sorted(OFFER.gdansk, OFFER.warszawa));
    expect(await matching({ field: 'address_city', operator: 'contains', value: 'AKÓ' })).toEqual(
      sorted(OFFER.krakowFull, OFFER.krakowCheap, OFFER.inactiveInvestment),
    );
    expect(await matching({ field: 'address_city', operator: 'starts_with', value: 'gdań' })).toEqual([OFFER.gdansk]);
    expect(await matching({ field: 'external_id', operator: 'starts_with', value: 'CRM-100' })).toHaveLength(6);
    expect(await matching({ field: 'title', operator: 'contains', value: 'balkonem' })).toHaveLength(4);
  });

  it('treats % and _ in contains / starts_with as ordinary characters', async () => {
    expect(await matching({ field: 'title', operator: 'contains', value: '100%' })).toEqual([OFFER.krakowCheap]);
    expect(await matching({ field: 'title', operator: 'contains', value: '%' })).toEqual([OFFER.krakowCheap]);
    expect(await matching({ field: 'title', operator: 'contains', value: 'okazja_super' })).toEqual([OFFER.krakowCheap]);
    expect(await matching({ field: 'title', operator: 'contains', value: 'a_s' })).toEqual([OFFER.krakowCheap]);
    expect(await matching({ field: 'title', operator: 'contains', value: '_' })).toEqual([OFFER.krakowCheap]);
    expect(await matching({ field: 'title', operator: 'starts_with', value: '%' })).toEqual([]);
    expect(await matching({ field: 'title', operator: 'contains', value: '\\' })).toEqual([]);
  });

  it('matches enumerations and uuids by equality', async () => {
    expect(await matching({ field: 'market_type', operator: 'eq', value: 'SECONDARY' })).toEqual(sorted(OFFER.warszawa, OFFER.gdansk));
    expect(await matching({ field: 'offer_type', operator: 'ne', value: 'APARTMENT_SALES' })).toEqual(sorted(OFFER.nulls, OFFER.gdansk));
    expect(await matching({ field: 'agent_id', operator: 'eq', value: AGENT.nowak.toUpperCase() })).toEqual([OFFER.krakowFull]);
    expect(await matching({ field: 'branch_id', operator: 'in', value: [BRANCH.krakow, BRANCH.warszawa] })).toEqual(
      sorted(OFFER.krakowFull, OFFER.krakowCheap, OFFER.warszawa),
    );
    expect(await matching({ field: 'investment_id', operator: 'is_null', value: false })).toEqual(
      sorted(OFFER.krakowFull, OFFER.krakowCheap, OFFER.inactiveInvestment),
    );
    expect(await matching({ field: 'investment_id', operator: 'ne', value: INVESTMENT.zielone })).toEqual([OFFER.inactiveInvestment]);
    expect(await matching({ field: 'offer_id', operator: 'eq', value: OFFER.gdansk.replace(/-/g, '') })).toEqual([OFFER.gdansk]);
    expect(await matching({ field: 'id', operator: 'eq', value: OFFER.gdansk })).toEqual([OFFER.gdansk]);
  });

  it('matches booleans; ne leaves out offers without a value', async () => {
    expect(await matching({ field: 'has_balcony', operator: 'eq', value: true })).toEqual(
      sorted(OFFER.krakowFull, OFFER.warszawa, OFFER.inactiveInvestment, OFFER.gdansk),
    );
    expect(await matching({ field: 'has_balcony', operator: 'ne', value: true })).toEqual([OFFER.krakowCheap]);
    expect(await matching({ field: 'has_balcony', operator: 'eq', value: 'no' })).toEqual([OFFER.krakowCheap]);
    expect(await matching({ field: 'has_balcony', operator: 'is_null', value: true })).toEqual([OFFER.nulls]);
  });

  it('compares date-times given in any RFC 3339 offset', async () => {
    expect(await matching({ field: 'created_at', operator: 'lt', value: '2025-01-12T10:00:00+01:00' })).toEqual([OFFER.krakowFull]);
    expect(await matching({ field: 'created_at', operator: 'lte', value: '2025-01-12T09:00:00Z' })).toEqual(
      sorted(OFFER.krakowFull, OFFER.krakowCheap),
    );
    expect(await matching({ field: 'created_at', operator: 'eq', value: '2025-01-10T09:00:00.123456Z' })).toEqual([OFFER.krakowFull]);
    expect(await matching({ field: 'available_from_date', operator: 'gt', value: '2025-03-01T00:00:00Z' })).toEqual([OFFER.warszawa]);
    expect(await matching({ field: 'available_from_date', operator: 'between', value: ['2025-01-01', '2025-03-01'] })).toHaveLength(4);
    expect(await matching({ field: 'date_modified', operator: 'eq', value: '2025-01-31T09:15:00Z' })).toHaveLength(5);
    expect(await matching({ field: 'updated_at', operator: 'gt', value: '2025-01-30T00:00:00Z' })).toEqual([OFFER.krakowFull]);
  });

  it('treats an empty or absent array as null', async () => {
    expect(await matching({ field: 'photos_urls', operator: 'is_null', value: true })).toEqual([OFFER.nulls]);
    expect(await matching({ field: 'floor_plan_urls', operator: 'is_null', value: false })).toEqual([]);
    expect(await matching({ field: 'floor_plan_urls', operator: 'is_null', value: true })).toHaveLength(6);
  });

  it('combines filters with AND and accepts the offer_data. prefix', async () => {
    expect(
      await matching(
        { field: 'offer_data.address_city', operator: 'eq', value: 'Kraków' },
        { field: 'rooms', operator: 'eq', value: 3 },
        { field: 'price', operator: 'lt', value: 900000 },
      ),
    ).toEqual([OFFER.krakowFull]);
  });

  it('reads the example request of the documentation', async () => {
    const res = await post(t, '/api/v1/offers?include=agent', {
      pagination: { page: 1, size: 20 },
      sorting: { field: 'price', direction: 'asc' },
      filters: [
        { field: 'price', operator: 'between', value: [400000, 900000] },
        { field: 'rooms', operator: 'in', value: [2, 3] },
        { field: 'address_city', operator: 'eq', value: 'Kraków' },
        { field: 'has_balcony', operator: 'eq', value: true },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((o: { offer_id: string; agent: { agent_id: string } }) => [o.offer_id, o.agent.agent_id])).toEqual([
      [OFFER.krakowFull, AGENT.nowak],
    ]);
  });
});
