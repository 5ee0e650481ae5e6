/** Runs before every test file (vitest setupFiles): the harness's own teardown (helpers/teardown.ts). */
import { afterAll } from 'vitest';
import { closeAll } from './helpers/teardown.js';

afterAll(closeAll);
