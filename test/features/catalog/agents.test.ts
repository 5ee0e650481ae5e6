import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { AGENT, BRANCH, KEYS, ORG_A } from '../../helpers/fixtures.js';
import { AGENT_FIELDS } from '../../helpers/fields.js';

describe('agents', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  it('GET /api/v1/agents lists the organization\'s agents by last name, first name, id', async () => {
    const res = await get(t, '/api/v1/agents');
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<string, unknown>[];
    expect(body.map((a) => a.agent_id)).toEqual([AGENT.kowalskaAnna, AGENT.kowalskaBeata, AGENT.nowak, AGENT.noBranch]);
    for (const agent of body) expect(Object.keys(agent)).toEqual(AGENT_FIELDS);
    expect((await get(t, '/api/v1/agents', { key: KEYS.activeB })).json().map((a: { agent_id: string }) => a.agent_id)).toEqual([
      AGENT.other,
    ]);
  });

  it('GET /api/v1/agents/{agent_id} returns every field, nulls included', async () => {
    const full = (await get(t, `/api/v1/agents/${AGENT.nowak}`)).json();
    expect(full).toEqual({
      agent_id: AGENT.nowak,
      webpage_id: '0ea00000-0000-4000-8000-000000000001',
      organization_id: ORG_A,
      branch_id: BRANCH.krakow,
      email: 'jan.nowak@wawel.example.com',
      phone_number: '+48 600 000 001',
      first_name: 'Jan',
      last_name: 'Nowak',
      avatar_url: 'https://cdn.example.com/agents/nowak-avatar.jpg',
      job_title: 'Doradca',
      description: 'Specjalista od rynku pierwotnego.',
      cover_image_url: null,
      profile_image_url: 'https://cdn.example.com/agents/nowak.jpg',
    });
    expect(Object.keys(full)).toEqual(AGENT_FIELDS);
    const sparse = (await get(t, `/api/v1/agents/${AGENT.noBranch}`)).json();
    expect(Object.keys(sparse)).toEqual(AGENT_FIELDS);
    expect(sparse).toMatchObject({ branch_id: null, webpage_id: null, email: null });
  });

  it('answers 404 "Agent not found" for an unknown id and for another organization\'s agent', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', AGENT.other]) {
      const res = await get(t, `/api/v1/agents/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Agent not found' });
    }
  });

  it('answers 422 for a malformed id', async () => {
    const res = await get(t, `/api/v1/agents/${AGENT.nowak.slice(0, -1)}x`);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toEqual([
      {
        type: 'uuid_parsing',
        loc: ['path', 'agent_id'],
        msg: 'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `x` at 36',
        input: `${AGENT.nowak.slice(0, -1)}x`,
        ctx: { error: 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `x` at 36' },
      },
    ]);
  });
});
