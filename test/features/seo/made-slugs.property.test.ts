/**
 * Made slugs against a model of the slug rules (extension E12): over random sequences of imports
 * of offers with random ids, titles and cities from small pools (so made slugs clash), some
 * records giving slugs (some of them another offer's made slug), the stored slugs and the slugs
 * table are exactly what the rules give, step by step:
 *   - a given slug becomes current (the import is rejected when another offer has or had it, or
 *     two records give it; then nothing changes);
 *   - a new offer without one takes its made slug (title and city, 'offer' when nothing is left)
 *     plus a suffix of 0, 6, 12 or 32 hex digits of its id, the shortest that is free: not any
 *     slug of the organization (current or old, given in the same import included), and among new
 *     offers wanting the same made slug, the first in the bundle takes it (a suffixed one: the
 *     lowest id, should two ids share the digits);
 *   - a stored offer keeps its slug whatever its title becomes.
 * The import inserts new offers with their made slug (or, when an offer before it in the bundle
 * made the same, its suffixed form) and settles clashes at its end; this checks that doing so
 * gives what the rounds above give, in one batch and in batches of one or two offers, also when a
 * stored offer before a new one makes the same slug but holds another (the new one takes it).
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { scaled } from '../../helpers/scale.js';
import { importRejected, offer, resetDatabase, smallBundle } from '../../import/helpers.js';

const RUNS = scaled('MADE_SLUG_RUNS', 15, 100);
const SUFFIX_LENGTHS = [0, 6, 12, 32];
const OFFERS = 8;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ seed: false });
});
afterAll(() => t.destroy());

// Small pools, so that new offers of one import often make the same slug.
const TITLES = ['Dom', 'dom!', 'DOM ', 'Mieszkanie', '!!!', ''];
const CITIES = ['Łódź', 'Łódź', undefined];
// Made slugs of the pools above (so a given slug can take one a new offer would make), and another.
const GIVEN = ['dom-lodz', 'dom', 'mieszkanie-lodz', 'offer', 'nowy-dom'];

interface OfferStep {
  readonly present: boolean;
  readonly title: string;
  readonly city: string | undefined;
  readonly given: string | undefined;
}

const offerStep: fc.Arbitrary<OfferStep> = fc.record({
  present: fc.boolean(),
  title: fc.constantFrom(...TITLES),
  city: fc.constantFrom(...CITIES),
  given: fc.option(fc.constantFrom(...GIVEN), { nil: undefined, freq: 4 }),
});

/** The model: every slug of the organization (to its offer), and each offer's current one. */
interface Model {
  readonly taken: Map<string, string>;
  readonly current: Map<string, string>;
}

/**
 * The rounds of the rules over the new offers without a given slug (made: each one's made slug, in
 * the bundle's order).
 */
function makeSlugs(model: Model, made: Map<string, string>): void {
  let waiting = [...made.keys()];
  for (const suffix of SUFFIX_LENGTHS) {
    const next: string[] = [];
    // The first round visits the offers in the bundle's order, the later ones by id, so the
    // first to want a free slug is the first in the bundle (the lowest id for a suffixed one).
    if (suffix > 0) waiting.sort();
    for (const id of waiting) {
      const candidate = suffix === 0 ? made.get(id)! : `${made.get(id)!}-${id.replace(/-/g, '').slice(0, suffix)}`;
      if (model.taken.has(candidate)) next.push(id);
      else {
        model.taken.set(candidate, id);
        model.current.set(id, candidate);
      }
    }
    waiting = next;
  }
  expect(waiting).toEqual([]);
}

describe('made slugs', () => {
  it('are what the rules give: the shortest free suffix, the first in the bundle first, given and old slugs never taken', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.uuid(), { minLength: OFFERS, maxLength: OFFERS }),
        fc.array(fc.array(offerStep, { minLength: OFFERS, maxLength: OFFERS }), { minLength: 1, maxLength: 4 }),
        // Small batches: a new offer whose made slug an earlier offer made in an earlier batch is inserted
        // with its suffixed slug (offer-batches.ts); one batch: settled at the end only.
        fc.constantFrom(undefined, 1, 2),
        async (upperIds, steps, batchSize) => {
          const ids = upperIds.map((id) => id.toLowerCase());
          await resetDatabase(t.db.db);
          const { bundle, ids: base } = smallBundle();
          const model: Model = { taken: new Map(), current: new Map() };
          for (const step of steps) {
            bundle.offers = step.flatMap((s, n) => {
              if (!s.present) return [];
              const o = offer(ids[n]!, base.org, n, { agent_id: base.agent, branch_id: base.branch });
              const data = o.offer_data as Record<string, unknown>;
              data.title = s.title;
              if (s.city !== undefined) data.address_city = s.city;
              if (s.given !== undefined) o.slug = s.given;
              return [o];
            });
            const given = step.flatMap((s, n) => (s.present && s.given !== undefined ? [[ids[n]!, s.given] as const] : []));
            const clash = given.some(
              ([id, g]) => (model.taken.has(g) && model.taken.get(g) !== id) || given.some(([other, h]) => other !== id && h === g),
            );
            const rejected = await importRejected(t, bundle, { batchSize });
            expect(rejected).toBe(clash);
            if (!rejected) {
              for (const [id, g] of given) {
                model.taken.set(g, id);
                model.current.set(id, g);
              }
              // The made slug of each new offer without a given one, as the service makes it of the stored row.
              const fresh = step.flatMap((s, n) => (s.present && s.given === undefined && !model.current.has(ids[n]!) ? [ids[n]!] : []));
              const made = await sql<{ offer_id: string; made: string }>`
                select offer_id::text as offer_id,
                  coalesce(nullif(ecs_slug(coalesce(offer_data->>'title', '') || ' ' || coalesce(offer_data->>'address_city', '')), ''), 'offer') as made
                from offers where offer_id = any(${fresh}::uuid[])`.execute(t.db.db);
              const madeOf = new Map(made.rows.map((r) => [r.offer_id, r.made]));
              makeSlugs(model, new Map(fresh.map((id) => [id, madeOf.get(id)!])));
            }
            const stored = await sql<{ offer_id: string; slug: string | null }>`select offer_id::text as offer_id, slug from offers`.execute(t.db.db);
            expect(new Map(stored.rows.map((r) => [r.offer_id, r.slug]))).toEqual(model.current);
            const kept = await sql<{ slug: string; entity_id: string }>`
              select slug, entity_id::text as entity_id from slugs where kind = 'offer'`.execute(t.db.db);
            expect(new Map(kept.rows.map((r) => [r.slug, r.entity_id]))).toEqual(model.taken);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
