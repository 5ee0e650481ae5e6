import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { INVESTMENT, KEYS, ORG_A } from '../../helpers/fixtures.js';
import { INVESTMENT_FIELDS } from '../../helpers/fields.js';

describe('investments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  it('GET /api/v1/investments lists active and inactive investments by name', async () => {
    const res = await get(t, '/api/v1/investments');
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<string, unknown>[];
    expect(body.map((i) => i.investment_id)).toEqual([INVESTMENT.wisla, INVESTMENT.zielone, INVESTMENT.empty]);
    for (const investment of body) expect(Object.keys(investment)).toEqual(INVESTMENT_FIELDS);
    expect(body[0]).toEqual({
      investment_id: INVESTMENT.wisla,
      webpage_id: null,
      organization_id: ORG_A,
      name: 'Apartamenty Nad Wisłą',
      description: null,
      is_active: false,
    });
  });

  it('narrows the list with is_active (pydantic boolean forms accepted)', async () => {
    const ids = async (query: string) =>
      ((await get(t, `/api/v1/investments?${query}`)).json() as { investment_id: string }[]).map((i) => i.investment_id);
    expect(await ids('is_active=true')).toEqual([INVESTMENT.zielone, INVESTMENT.empty]);
    expect(await ids('is_active=false')).toEqual([INVESTMENT.wisla]);
    expect(await ids('is_active=1')).toEqual([INVESTMENT.zielone, INVESTMENT.empty]);
    expect(await ids('is_active=no')).toEqual([INVESTMENT.wisla]);
    expect(await ids('unknown=1')).toHaveLength(3);
  });

  it('answers 422 for an is_active that is not a boolean', async () => {
    const res = await get(t, '/api/v1/investments?is_active=maybe');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: [
        {
          type: 'bool_parsing',
          loc: ['query', 'is_active'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: 'maybe',
        },
      ],
    });
  });

  it('GET /api/v1/investments/{id} returns one investment; 404 for unknown or foreign ids; 422 for malformed', async () => {
    const res = await get(t, `/api/v1/investments/${INVESTMENT.zielone}`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(INVESTMENT_FIELDS);
    expect(res.json()).toMatchObject({ name: 'Osiedle Zielone', is_active: true });
    for (const id of ['00000000-0000-4000-8000-000000000000', INVESTMENT.other]) {
      const missing = await get(t, `/api/v1/investments/${id}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: 'Investment not found' });
    }
    const other = await get(t, `/api/v1/investments/${INVESTMENT.other}`, { key: KEYS.activeB });
    expect(other.statusCode).toBe(200);
    const bad = await get(t, '/api/v1/investments/1-2-3-4-5');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0]).toMatchObject({
      type: 'uuid_parsing',
      loc: ['path', 'investment_id'],
      msg: 'Input should be a valid UUID, invalid group length in group 0: expected 8, found 1',
    });
  });
});
