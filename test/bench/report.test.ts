/**
 * The benchmark's verdicts on the targets (bench/report.ts): issue 23's refusals are judged on the
 * lower ratio of the two cache modes, and a scenario that answered wrongly is never a speed.
 */
import { describe, expect, it } from 'vitest';
import { evaluateTargets, type BenchReport, type ScenarioOutcome } from '../../bench/report.js';

type Mode = ScenarioOutcome['mode'];

function scenario(id: string, mode: Mode, ratioToFloor: number, status: ScenarioOutcome['status'] = 'ok'): ScenarioOutcome {
  return {
    id,
    label: id,
    mode,
    status,
    ...(status === 'ok' ? { ratioToFloor } : { problem: 'unexpected status 500' }),
    poolSize: 1,
    rounds: [],
  } as ScenarioOutcome;
}

function targetsOf(scenarios: ScenarioOutcome[]) {
  const report: Pick<BenchReport, 'scenarios' | 'import' | 'xmlVsJson' | 'quick'> = {
    scenarios,
    import: { offers: 5000, seconds: 1, offersPerSecond: 5000, peakRssMb: 100, exitCode: 0, counts: {} },
    xmlVsJson: {},
    quick: true,
  };
  return evaluateTargets(report);
}

const UNKNOWN_KEY = 'GET organization with an unknown key → 401';

describe('issue 23 targets', () => {
  it('pass only when both cache modes reach 0.8× the floor', () => {
    const both = targetsOf([scenario('invalid-key-401', 'on', 0.91), scenario('invalid-key-401', 'off', 0.83)]);
    expect(both.find((t) => t.name === UNKNOWN_KEY)).toMatchObject({ result: 'pass', measured: '0.91× / 0.83×' });

    const oneShort = targetsOf([scenario('invalid-key-401', 'on', 0.95), scenario('invalid-key-401', 'off', 0.79)]);
    expect(oneShort.find((t) => t.name === UNKNOWN_KEY)).toMatchObject({ result: 'fail', measured: '0.95× / 0.79×' });
  });

  it('judge the mode that ran when only one did, and say when none did', () => {
    const onlyOn = targetsOf([scenario('invalid-key-401-flood', 'on', 0.85)]);
    expect(onlyOn.find((t) => t.name.startsWith('GET organization with a new unknown key'))).toMatchObject({ result: 'pass', measured: '0.85× / not run' });

    const none = targetsOf([]);
    expect(none.find((t) => t.name === 'GET organization without a key → 401')).toMatchObject({ result: 'n/a', measured: 'not run' });
  });

  it('report an error, never a speed, when a mode answered wrongly', () => {
    const wrong = targetsOf([scenario('unauthorized-401', 'on', 0.95), scenario('unauthorized-401', 'off', 0, 'error')]);
    expect(wrong.find((t) => t.name === 'GET organization without a key → 401')).toMatchObject({ result: 'error', measured: 'unexpected status 500' });

    const onlyWrong = targetsOf([scenario('unauthorized-401', 'off', 0, 'error')]);
    expect(onlyWrong.find((t) => t.name === 'GET organization without a key → 401')).toMatchObject({ result: 'error', measured: 'unexpected status 500' });
  });
});
