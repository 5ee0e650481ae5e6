import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { AGENT, BRANCH, KEYS, ORG_A } from '../../helpers/fixtures.js';
import { AGENT_FIELDS, BRANCH_FIELDS, LOCATION_FIELDS, WEEKDAY_FIELDS } from '../../helpers/fields.js';

describe('branches', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  describe('GET /api/v1/branches', () => {
    it('lists the organization\'s branches by name (byte order), ties by id', async () => {
      const res = await get(t, '/api/v1/branches');
      expect(res.statusCode).toBe(200);
      const body = res.json() as Record<string, unknown>[];
      expect(body.map((b) => b.branch_id)).toEqual([BRANCH.krakow, BRANCH.empty, BRANCH.warszawa, BRANCH.lodz]);
      for (const branch of body) {
        expect(Object.keys(branch)).toEqual(BRANCH_FIELDS);
        expect(branch.organization_id).toBe(ORG_A);
      }
    });

    it('renders opening hours and location in full, nulls where empty', async () => {
      const body = (await get(t, '/api/v1/branches')).json() as Record<string, any>[];
      const krakow = body[0]!;
      expect(Object.keys(krakow.open_time)).toEqual(WEEKDAY_FIELDS);
      expect(krakow.open_time.wednesday).toEqual([
        { from_time: '09:00', to_time: '12:00' },
        { from_time: '13:00', to_time: '17:00' },
      ]);
      expect(krakow.open_time.sunday).toEqual([]);
      expect(Object.keys(krakow.location)).toEqual(LOCATION_FIELDS);
      const warszawa = body.find((b) => b.branch_id === BRANCH.warszawa)!;
      expect(warszawa).toMatchObject({ description: null, open_time: null, location: null, email: null });
    });

    it('shows another organization only its own branches', async () => {
      const body = (await get(t, '/api/v1/branches', { key: KEYS.activeB })).json() as Record<string, unknown>[];
      expect(body.map((b) => b.branch_id)).toEqual([BRANCH.other]);
    });
  });

  describe('GET /api/v1/branches/{branch_id}', () => {
    it('returns one branch in table order', async () => {
      const res = await get(t, `/api/v1/branches/${BRANCH.krakow}`);
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json())).toEqual(BRANCH_FIELDS);
      expect(res.json().name).toBe('Kraków Centrum');
    });

    it('accepts the id in any letter case and in the other UUID forms, answering in lower case', async () => {
      const simple = BRANCH.krakow.replace(/-/g, '');
      for (const id of [BRANCH.krakow.toUpperCase(), simple, `{${BRANCH.krakow}}`, `urn:uuid:${BRANCH.krakow}`]) {
        const res = await get(t, `/api/v1/branches/${encodeURIComponent(id)}`);
        expect(res.statusCode, id).toBe(200);
        expect(res.json().branch_id).toBe(BRANCH.krakow);
      }
    });

    it('answers 404 "Branch not found" for an unknown id and for another organization\'s branch', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', BRANCH.other]) {
        const res = await get(t, `/api/v1/branches/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Branch not found' });
      }
    });

    it('answers 422 for a malformed id', async () => {
      const res = await get(t, '/api/v1/branches/12345');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['path', 'branch_id'],
            msg: 'Input should be a valid UUID, invalid length: expected length 32 for simple format, found 5',
            input: '12345',
            ctx: { error: 'invalid length: expected length 32 for simple format, found 5' },
          },
        ],
      });
    });
  });

  describe('GET /api/v1/branches/{branch_id}/agents', () => {
    it('lists the branch\'s agents by last name, first name', async () => {
      const res = await get(t, `/api/v1/branches/${BRANCH.krakow}/agents`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as Record<string, unknown>[];
      expect(body.map((a) => a.agent_id)).toEqual([AGENT.kowalskaAnna, AGENT.kowalskaBeata, AGENT.nowak]);
      for (const agent of body) expect(Object.keys(agent)).toEqual(AGENT_FIELDS);
    });

    it('gives [] for a branch without agents', async () => {
      const res = await get(t, `/api/v1/branches/${BRANCH.empty}/agents`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });

    it('answers 404 "Branch not found" for an unknown or foreign branch, 422 for a malformed id', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', BRANCH.other]) {
        const res = await get(t, `/api/v1/branches/${id}/agents`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Branch not found' });
      }
      const bad = await get(t, '/api/v1/branches/nope/agents');
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['path', 'branch_id']);
    });
  });
});
