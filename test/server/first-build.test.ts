/**
 * The first `npm start` or `npm run cli` of a fresh clone builds dist/ (scripts/build-if-stale.mjs)
 * and says so as a first build; a later one builds only when the sources changed, and says that.
 * Run on a scratch project of one source file that shares this project's node_modules.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/processes.js';

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-first-build-'));
  fs.mkdirSync(path.join(scratch, 'scripts'));
  fs.mkdirSync(path.join(scratch, 'src'));
  for (const file of ['scripts/build-if-stale.mjs', 'tsconfig.json', 'tsconfig.build.json', 'package.json']) {
    fs.copyFileSync(path.join(projectRoot, file), path.join(scratch, file));
  }
  fs.symlinkSync(path.join(projectRoot, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(scratch, 'src', 'hello.ts'), "export const hello: string = 'hello';\n");
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const build = () => spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: scratch, encoding: 'utf8' });

describe('build-if-stale', () => {
  it('says "first build" when there is no build yet, nothing when dist/ is fresh, and why when it is stale', () => {
    const first = build();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^building dist\/ \(first build\)\.\.\.\n/);
    expect(first.stdout).toBe('');
    expect(fs.existsSync(path.join(scratch, 'dist', 'hello.js'))).toBe(true);

    const fresh = build();
    expect(fresh.status).toBe(0);
    expect(fresh.stderr).toBe('');

    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(scratch, 'src', 'hello.ts'), later, later);
    const stale = build();
    expect(stale.status, stale.stderr).toBe(0);
    expect(stale.stderr).toMatch(/^building dist\/ \(the sources changed since the last build\)\.\.\.\n/);
  });
});
