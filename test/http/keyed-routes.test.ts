/**
 * Every keyed route of the table, the ones to come included, gets the shared 401 / 404 / 422 cases
 * (test/helpers/keyed-route-cases.ts).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { keyedRoutes, runKeyedRouteCases } from '../helpers/keyed-route-cases.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.destroy());

describe.each(keyedRoutes())('%s', (_name, route) => runKeyedRouteCases(() => t, route));
