/**
 * 422 bodies, compared whole: they must read exactly like FastAPI + pydantic v2's, and list every
 * problem of a request (path, then query, then body).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, post, type TestApp } from '../helpers/app.js';

describe('422 validation details', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  async function detail(body: unknown, options: { url?: string; headers?: Record<string, string> } = {}) {
    const res = await post(t, options.url ?? '/api/v1/offers', body, { headers: options.headers });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res.json().detail as unknown[];
  }
  const offersWith = (extra: Record<string, unknown>) => ({ pagination: {}, ...extra });

  describe('the body as a whole', () => {
    it('no body, or a JSON null, is a missing body', async () => {
      const expected = [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }];
      expect(await detail(undefined)).toEqual(expected);
      expect(await detail('null')).toEqual(expected);
    });

    it('a body that is not an object', async () => {
      expect(await detail('[1,2]')).toEqual([
        { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [1, 2] },
      ]);
      expect(await detail('"text"')).toEqual([
        { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: 'text' },
      ]);
    });

    it('a body of another content type is a 422, never a 415', async () => {
      expect(await detail('pagination=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } })).toEqual([
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: 'pagination=1',
        },
      ]);
      expect(await detail('{"pagination": {}}', { headers: { 'content-type': 'text/plain' } })).toHaveLength(1);
    });

    it('takes JSON with no content type, a charset, or a +json type', async () => {
      for (const contentType of ['application/json; charset=utf-8', 'application/vnd.api+json', 'APPLICATION/JSON']) {
        const res = await post(t, '/api/v1/offers', '{"pagination": {}}', { headers: { 'content-type': contentType } });
        expect(res.statusCode, contentType).toBe(200);
      }
      const bare = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: { authorization: t.fixture.KEYS.activeA1 }, payload: '{"pagination": {}}' });
      expect(bare.statusCode).toBe(200);
    });

    it.each([
      ['{"pagination": ', 15, 'Expecting value'],
      ['{"pagination": {}', 17, "Expecting ',' delimiter"],
      ["{'pagination': {}}", 1, 'Expecting property name enclosed in double quotes'],
      ['{"pagination" {}}', 14, "Expecting ':' delimiter"],
      ['{"pagination": {},}', 17, 'Illegal trailing comma before end of object'],
      ['{"filters": [1,]}', 14, 'Illegal trailing comma before end of array'],
      ['{"pagination": {}} x', 19, 'Extra data'],
      ['{"pagination": "abc}', 15, 'Unterminated string starting at'],
      ['{"pagination": "a\\q"}', 17, 'Invalid \\escape'],
      ['{"pagination": "a\\u12"}', 18, 'Invalid \\uXXXX escape'],
      ['{"pagination": "a\u0001"}', 17, 'Invalid control character at'],
      ['{"zażółć": x}', 11, 'Expecting value'],
      ['   ', 3, 'Expecting value'],
      ['{"pagination": tru}', 15, 'Expecting value'],
      ['{"pagination": -}', 15, 'Expecting value'],
    ])('malformed JSON %j is json_invalid at its character offset', async (body, position, error) => {
      expect(await detail(body)).toEqual([{ type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error } }]);
    });

    it('reports malformed JSON alone, as FastAPI gives up before validating', async () => {
      const detailList = await detail('{', { url: '/api/v1/investments/not-a-uuid/offers?include=nope' });
      expect(detailList).toEqual([
        { type: 'json_invalid', loc: ['body', 1], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting property name enclosed in double quotes' } },
      ]);
    });

    it('accepts NaN and Infinity as Python does, then judges the value', async () => {
      expect(await detail('{"pagination": {"page": NaN}}')).toEqual([
        { type: 'finite_number', loc: ['body', 'pagination', 'page'], msg: 'Input should be a finite number', input: null },
      ]);
    });
  });

  describe('pagination', () => {
    it('is required', async () => {
      expect(await detail({ sorting: null })).toEqual([
        { type: 'missing', loc: ['body', 'pagination'], msg: 'Field required', input: { sorting: null } },
      ]);
    });

    it('must be an object', async () => {
      expect(await detail({ pagination: 5 })).toEqual([
        { type: 'model_attributes_type', loc: ['body', 'pagination'], msg: 'Input should be a valid dictionary or object to extract fields from', input: 5 },
      ]);
    });

    it('checks page and size bounds and types', async () => {
      expect(await detail({ pagination: { page: 0, size: 101 } })).toEqual([
        { type: 'greater_than_equal', loc: ['body', 'pagination', 'page'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } },
        { type: 'less_than_equal', loc: ['body', 'pagination', 'size'], msg: 'Input should be less than or equal to 100', input: 101, ctx: { le: 100 } },
      ]);
      expect(await detail({ pagination: { page: 1.5, size: 'ten' } })).toEqual([
        { type: 'int_from_float', loc: ['body', 'pagination', 'page'], msg: 'Input should be a valid integer, got a number with a fractional part', input: 1.5 },
        { type: 'int_parsing', loc: ['body', 'pagination', 'size'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'ten' },
      ]);
      expect(await detail({ pagination: { page: null, size: [] } })).toEqual([
        { type: 'int_type', loc: ['body', 'pagination', 'page'], msg: 'Input should be a valid integer', input: null },
        { type: 'int_type', loc: ['body', 'pagination', 'size'], msg: 'Input should be a valid integer', input: [] },
      ]);
      expect(await detail({ pagination: { size: 0 } })).toEqual([
        { type: 'greater_than_equal', loc: ['body', 'pagination', 'size'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } },
      ]);
    });
  });

  describe('sorting', () => {
    it('checks the direction literal and the field', async () => {
      expect(await detail(offersWith({ sorting: { field: 'price', direction: 'DESC' } }))).toEqual([
        {
          type: 'literal_error',
          loc: ['body', 'sorting', 'direction'],
          msg: "Input should be 'asc' or 'desc'",
          input: 'DESC',
          ctx: { expected: "'asc' or 'desc'" },
        },
      ]);
      expect(await detail(offersWith({ sorting: { field: 'colour' } }))).toEqual([
        { type: 'value_error', loc: ['body', 'sorting', 'field'], msg: "Value error, unknown field 'colour'", input: 'colour', ctx: { error: {} } },
      ]);
      // A close known field is named.
      expect(await detail(offersWith({ sorting: { field: 'city' } }))).toEqual([
        {
          type: 'value_error',
          loc: ['body', 'sorting', 'field'],
          msg: "Value error, unknown field 'city'; did you mean 'address_city'?",
          input: 'city',
          ctx: { error: {} },
        },
      ]);
      expect(await detail(offersWith({ sorting: { field: 'has_balcony' } }))).toEqual([
        {
          type: 'value_error',
          loc: ['body', 'sorting', 'field'],
          msg: "Value error, field 'has_balcony' cannot be sorted on",
          input: 'has_balcony',
          ctx: { error: {} },
        },
      ]);
      expect(await detail(offersWith({ sorting: { direction: 'asc' } }))).toEqual([
        { type: 'missing', loc: ['body', 'sorting', 'field'], msg: 'Field required', input: { direction: 'asc' } },
      ]);
      expect(await detail(offersWith({ sorting: 'price' }))).toEqual([
        { type: 'model_attributes_type', loc: ['body', 'sorting'], msg: 'Input should be a valid dictionary or object to extract fields from', input: 'price' },
      ]);
    });
  });

  describe('filters', () => {
    it('must be a list of at most 50 items', async () => {
      expect(await detail(offersWith({ filters: { field: 'price' } }))).toEqual([
        { type: 'list_type', loc: ['body', 'filters'], msg: 'Input should be a valid list', input: { field: 'price' } },
      ]);
      // Fields named as people guess them: the closest known field is suggested.
      const guesses = { city: 'address_city', balcony: 'has_balcony', prise: 'price', rooms_count: 'rooms', district: 'address_district' };
      for (const [guess, known] of Object.entries(guesses)) {
        expect(await detail(offersWith({ filters: [{ field: guess, operator: 'eq', value: 1 }] }))).toEqual([
          {
            type: 'value_error',
            loc: ['body', 'filters', 0, 'field'],
            msg: `Value error, unknown field '${guess}'; did you mean '${known}'?`,
            input: guess,
            ctx: { error: {} },
          },
        ]);
      }
      const many = Array.from({ length: 51 }, () => ({ field: 'price', operator: 'gt', value: 1 }));
      expect(await detail(offersWith({ filters: many }))).toEqual([
        {
          type: 'too_long',
          loc: ['body', 'filters'],
          msg: 'List should have at most 50 items after validation, not 51',
          input: many,
          ctx: { field_type: 'List', max_length: 50, actual_length: 51 },
        },
      ]);
    });

    it('locates an unknown field, a refused operator and a wrong value at the item', async () => {
      expect(
        await detail(
          offersWith({
            filters: [
              { field: 'colour', operator: 'eq', value: 'red' },
              { field: 'price', operator: 'contains', value: '1' },
              { field: 'price', operator: 'like', value: 1 },
              { field: 'price', operator: 'gt', value: 'cheap' },
              { operator: 'eq', value: 1 },
            ],
          }),
        ),
      ).toEqual([
        { type: 'value_error', loc: ['body', 'filters', 0, 'field'], msg: "Value error, unknown field 'colour'", input: 'colour', ctx: { error: {} } },
        {
          type: 'value_error',
          loc: ['body', 'filters', 1, 'operator'],
          msg: "Value error, operator 'contains' is not available for field 'price'; use one of: eq, ne, gt, gte, lt, lte, between, in, not_in, is_null",
          input: 'contains',
          ctx: { error: {} },
        },
        {
          type: 'literal_error',
          loc: ['body', 'filters', 2, 'operator'],
          msg: "Input should be 'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'is_null', 'contains' or 'starts_with'",
          input: 'like',
          ctx: { expected: "'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'is_null', 'contains' or 'starts_with'" },
        },
        { type: 'float_parsing', loc: ['body', 'filters', 3, 'value'], msg: 'Input should be a valid number, unable to parse string as a number', input: 'cheap' },
        { type: 'missing', loc: ['body', 'filters', 4, 'field'], msg: 'Field required', input: { operator: 'eq', value: 1 } },
      ]);
    });

    it('checks values by the field\'s type', async () => {
      const one = async (field: string, operator: string, value: unknown) =>
        (await detail(offersWith({ filters: [{ field, operator, value }] })))[0];
      expect(await one('rooms', 'eq', 2.5)).toEqual({
        type: 'int_from_float',
        loc: ['body', 'filters', 0, 'value'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input: 2.5,
      });
      expect(await one('address_city', 'eq', 5)).toEqual({
        type: 'string_type',
        loc: ['body', 'filters', 0, 'value'],
        msg: 'Input should be a valid string',
        input: 5,
      });
      expect(await one('has_balcony', 'eq', 'maybe')).toEqual({
        type: 'bool_parsing',
        loc: ['body', 'filters', 0, 'value'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      });
      expect(await one('has_balcony', 'eq', null)).toEqual({
        type: 'bool_type',
        loc: ['body', 'filters', 0, 'value'],
        msg: 'Input should be a valid boolean',
        input: null,
      });
      expect(await one('agent_id', 'eq', 'abc')).toMatchObject({ type: 'uuid_parsing', loc: ['body', 'filters', 0, 'value'] });
      expect(await one('agent_id', 'eq', 7)).toEqual({
        type: 'uuid_type',
        loc: ['body', 'filters', 0, 'value'],
        msg: 'UUID input should be a string, bytes or UUID object',
        input: 7,
      });
      expect(await one('created_at', 'gt', 'yesterday')).toMatchObject({ type: 'datetime_parsing', loc: ['body', 'filters', 0, 'value'] });
      expect(await one('created_at', 'gt', 1)).toMatchObject({ type: 'datetime_type', msg: 'Input should be a valid datetime' });
      expect(await one('price', 'is_null', 'perhaps')).toMatchObject({ type: 'bool_parsing' });
      expect(await one('photos_urls', 'eq', [])).toMatchObject({ type: 'value_error', loc: ['body', 'filters', 0, 'operator'] });
    });

    it('checks list values of between, in and not_in', async () => {
      const one = async (operator: string, value: unknown) =>
        (await detail(offersWith({ filters: [{ field: 'price', operator, value }] })));
      expect(await one('between', [1])).toEqual([
        {
          type: 'too_short',
          loc: ['body', 'filters', 0, 'value'],
          msg: 'List should have at least 2 items after validation, not 1',
          input: [1],
          ctx: { field_type: 'List', min_length: 2, actual_length: 1 },
        },
      ]);
      expect(await one('between', 5)).toEqual([
        { type: 'list_type', loc: ['body', 'filters', 0, 'value'], msg: 'Input should be a valid list', input: 5 },
      ]);
      expect(await one('in', [])).toEqual([
        {
          type: 'too_short',
          loc: ['body', 'filters', 0, 'value'],
          msg: 'List should have at least 1 item after validation, not 0',
          input: [],
          ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
        },
      ]);
      const tooMany = Array.from({ length: 1001 }, (_, i) => i);
      expect((await one('not_in', tooMany))[0]).toMatchObject({ type: 'too_long', ctx: { field_type: 'List', max_length: 1000, actual_length: 1001 } });
      expect(await one('in', [1, 'x', 3, null])).toEqual([
        { type: 'float_parsing', loc: ['body', 'filters', 0, 'value', 1], msg: 'Input should be a valid number, unable to parse string as a number', input: 'x' },
        { type: 'float_type', loc: ['body', 'filters', 0, 'value', 3], msg: 'Input should be a valid number', input: null },
      ]);
    });
  });

  it('lists every problem of a request: path, then query, then body', async () => {
    const res = await post(t, '/api/v1/investments/42/offers?include=agents', { pagination: { size: 500 }, sorting: { field: 'price', direction: 'up' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc])).toEqual([
      ['uuid_parsing', ['path', 'investment_id']],
      ['literal_error', ['query', 'include']],
      ['less_than_equal', ['body', 'pagination', 'size']],
      ['literal_error', ['body', 'sorting', 'direction']],
    ]);
  });
});
