/**
 * Runs before every test file (vitest setupFiles): the harness's own teardown (helpers/teardown.ts),
 * and the response check: an answer of a test app that does not match /openapi.json fails the test
 * that caused it (helpers/openapi-responses.ts).
 */
import { afterAll, afterEach } from 'vitest';
import { takeResponseProblems } from './helpers/openapi-responses.js';
import { closeAll } from './helpers/teardown.js';

function failOnResponseProblems(): void {
  const problems = takeResponseProblems();
  if (problems.length === 0) return;
  const shown = problems.slice(0, 10).map((p) => `  - ${p}`);
  if (problems.length > 10) shown.push(`  ... and ${problems.length - 10} more listed`);
  throw new Error(`answers that differ from /openapi.json (fix the schema to describe the answer):\n${shown.join('\n')}`);
}

afterEach(failOnResponseProblems);
// Answers given outside any test (beforeAll) are reported with the file.
afterAll(failOnResponseProblems);
afterAll(closeAll);
