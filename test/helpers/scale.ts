/**
 * How long the long suites run. `npm test` runs them short, so that the loop stays a few minutes;
 * CI sets TEST_FULL=1 and runs them at full length. Each knob can also be set on its own
 * (FUZZ_REQUESTS=200000 npm test).
 */
export const FULL_LENGTH = process.env.TEST_FULL === '1';

/** The value of the environment variable `name`, else `quick` (npm test) or `full` (TEST_FULL=1). */
export function scaled(name: string, quick: number, full: number): number {
  const raw = process.env[name];
  if (raw !== undefined && raw.trim() !== '') {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, got "${raw}"`);
    return value;
  }
  return FULL_LENGTH ? full : quick;
}
