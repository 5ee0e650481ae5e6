/**
 * Property: over any sequence of imports of a few offers (prices, currencies and ancillary prices
 * drawn from small sets so that repeats are common; prices_valid_from absent, or a past date that
 * may be earlier than the latest entry), the history is exactly what an independent model says:
 * nothing is ever rewritten or removed (each import's history starts with the one before), there
 * is one entry per actual change, valid_from never goes backwards, an import with a late
 * prices_valid_from is rejected whole, and the offer's price_changed_at / price_change_pct are the
 * latest entry whose price differs from the one before it, with the percent rounded half away
 * from zero to 2 decimals.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { uid } from '../../helpers/fixtures.js';
import { scaled } from '../../helpers/scale.js';
import { closeAfterFile } from '../../helpers/teardown.js';
import { importObject, offer, problemsOf, resetDatabase, type Bundle, type Json } from '../../import/helpers.js';

const ORG = uid('e10a', 1);
const OFFERS = [uid('e10f', 1), uid('e10f', 2), uid('e10f', 3)];
const PRICES = [null, 0, 400000, 425000, 500000, 512345] as const;
const PER_METER = [null, 10000, 12500.5] as const;
const CURRENCIES = [null, 'PLN', 'EUR'] as const;
const ANCILLARY = [undefined, [], [{ kind: 'parking', label: 'P-1', price: 30000 }], [{ kind: 'storage', price: 9000 }]] as const;
/** Past dates a record may give as prices_valid_from, in order. */
const DATES = ['2025-01-01T00:00:00Z', '2025-03-01T12:00:00Z', '2025-06-30T23:59:59.5Z', '2025-09-11T00:00:00Z'];

interface OfferStep {
  price: number;
  perMeter: number;
  currency: number;
  ancillary: number;
  /** Index into DATES, or -1: no prices_valid_from. */
  date: number;
}
type Step = Array<OfferStep | null>;

const offerStep: fc.Arbitrary<OfferStep> = fc.record({
  price: fc.integer({ min: 0, max: PRICES.length - 1 }),
  perMeter: fc.integer({ min: 0, max: PER_METER.length - 1 }),
  currency: fc.integer({ min: 0, max: CURRENCIES.length - 1 }),
  ancillary: fc.integer({ min: 0, max: ANCILLARY.length - 1 }),
  date: fc.integer({ min: -1, max: DATES.length - 1 }),
});
// Each import holds some of the offers (null: left out); repeats of the previous prices are common.
const steps = fc.array(fc.array(fc.option(offerStep, { nil: null, freq: 3 }), { minLength: OFFERS.length, maxLength: OFFERS.length }), {
  minLength: 1,
  maxLength: 7,
});

interface ModelEntry {
  /** Epoch ms of a given date, or Infinity + n for "the time of import n" (later than every past date). */
  order: number;
  importNo: number | null;
  dateIndex: number;
  prices: string;
  price: number | null;
}

const pricesKey = (s: OfferStep) =>
  JSON.stringify([PRICES[s.price], PER_METER[s.perMeter], CURRENCIES[s.currency], (ANCILLARY[s.ancillary] ?? []).map((a) => ({ label: null, ...a }))]);

/** Round half away from zero of (next - previous) * 100 / previous, at 2 decimals, from integers. */
function percent(previous: number, next: number): number | null {
  if (previous === 0) return null;
  const num = BigInt(next - previous) * 10000n;
  const den = BigInt(previous);
  const abs = num < 0n ? -num : num;
  const rounded = (2n * abs + den) / (2n * den);
  return Number(num < 0n ? -rounded : rounded) / 100;
}

function bundleOf(step: Step): Bundle {
  const offers: Json[] = [];
  step.forEach((s, n) => {
    if (!s) return;
    const record = offer(OFFERS[n]!, ORG, n) as Json & { offer_data: Json };
    record.offer_data.price = PRICES[s.price];
    record.offer_data.price_per_meter = PER_METER[s.perMeter];
    record.offer_data.price_currency = CURRENCIES[s.currency];
    const ancillary = ANCILLARY[s.ancillary];
    if (ancillary !== undefined) record.ancillary = ancillary;
    if (s.date >= 0) record.prices_valid_from = DATES[s.date];
    offers.push(record);
  });
  return { organizations: [{ organization_id: ORG, name: 'Prices' }], offers };
}

describe('price history over random import sequences', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
    closeAfterFile(() => t.destroy());
  });

  it('is append-only, one entry per actual change, ordered, with the latest price change on the offer', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (sequence) => {
        await resetDatabase(t.db);
        const model = new Map<string, ModelEntry[]>(OFFERS.map((id) => [id, []]));
        let before: string[] = [];
        for (let importNo = 0; importNo < sequence.length; importNo += 1) {
          const step = sequence[importNo]!;
          // The model's verdict: what would be appended, and is any of it dated before the latest entry?
          const appended: Array<[string, ModelEntry]> = [];
          let late = false;
          step.forEach((s, n) => {
            if (!s) return;
            const entries = model.get(OFFERS[n]!)!;
            const last = entries.at(-1);
            if (last && last.prices === pricesKey(s)) return;
            const order = s.date >= 0 ? Date.parse(DATES[s.date]!) : Number.MAX_SAFE_INTEGER - 1000 + importNo;
            if (last && order < last.order) late = true;
            appended.push([OFFERS[n]!, { order, importNo: s.date >= 0 ? null : importNo, dateIndex: s.date, prices: pricesKey(s), price: PRICES[s.price] ?? null }]);
          });
          const run = importObject(t.db, bundleOf(step));
          if (late) {
            const problems = await problemsOf(run);
            expect(problems.every((p) => p.includes('prices_valid_from: earlier than the latest entry'))).toBe(true);
          } else {
            await run;
            for (const [id, entry] of appended) model.get(id)!.push(entry);
          }

          const rows = (await sql<{ row: string }>`select row_to_json(p)::text as row from offer_prices p order by entry_no`.execute(t.db)).rows.map(
            (r) => r.row,
          );
          // Never rewritten, never removed: the history before this import is a prefix of the one after.
          expect(rows.slice(0, before.length)).toEqual(before);
          before = rows;

          for (const id of OFFERS) {
            const expected = model.get(id)!;
            const stored = (
              await sql<{ valid_from: string; recorded_at: string; now_import: boolean; prices: string; price: string | null }>`
                select valid_from::text, recorded_at::text, valid_from = recorded_at as now_import,
                  jsonb_build_array(price, price_per_meter, price_currency,
                    (select coalesce(jsonb_agg(jsonb_build_object('label', a -> 'label', 'kind', a -> 'kind', 'price', a -> 'price')), '[]'::jsonb)
                     from jsonb_array_elements(ancillary) as a))::text as prices,
                  price::text
                from offer_prices where offer_id = ${id} order by entry_no`.execute(t.db)
            ).rows;
            expect(stored.length).toBe(expected.length);
            stored.forEach((row, i) => {
              const e = expected[i]!;
              expect(JSON.parse(row.prices)).toEqual(
                (JSON.parse(e.prices) as unknown[]).map((v, k) => (k === 3 ? (v as Json[]).map((a) => ({ label: null, ...a })) : v)),
              );
              if (e.importNo === null) expect(Date.parse(row.valid_from.replace(' ', 'T').replace(/\+00$/, 'Z'))).toBe(Date.parse(DATES[e.dateIndex]!));
              else expect(row.now_import).toBe(true);
              if (i > 0) expect(row.valid_from >= stored[i - 1]!.valid_from).toBe(true);
            });
            // The latest entry whose price differs from the one before, both known.
            let change: { at: number; pct: number | null } | undefined;
            for (let i = 1; i < expected.length; i += 1) {
              const [a, b] = [expected[i - 1]!.price, expected[i]!.price];
              if (a !== null && b !== null && a !== b) change = { at: i, pct: percent(a, b) };
            }
            const offerRow = (
              await sql<{ changed_at: string | null; pct: string | null }>`
                select price_changed_at::text as changed_at, price_change_pct::text as pct from offers where offer_id = ${id}`.execute(t.db)
            ).rows[0];
            if (!offerRow) {
              expect(expected).toHaveLength(0);
              continue;
            }
            expect(offerRow.changed_at).toBe(change ? stored[change.at]!.valid_from : null);
            expect(offerRow.pct === null ? null : Number(offerRow.pct)).toBe(change ? change.pct : null);
          }
        }
      }),
      { numRuns: scaled('PRICE_HISTORY_RUNS', 25, 200) },
    );
    // Full length (200 sequences of imports) takes about a minute alone: more beside other suites in CI.
  }, scaled('PRICE_HISTORY_TIMEOUT_MS', 60_000, 400_000));
});
