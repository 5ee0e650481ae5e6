#!/usr/bin/env node
/**
 * Builds dist/ only when the sources changed since the last build, so that `npm start` and
 * `npm run cli` start at once (a build takes about 10 s; this check a few milliseconds).
 * Stale means: a file under src/, a tsconfig or package.json is newer than dist/.build-stamp.
 * `--force` builds anyway (`npm run build`). Plain JavaScript on purpose: it must run before
 * anything is built.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const stamp = path.join(root, 'dist', '.build-stamp');

function newest(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted or renamed file changes its folder
  for (const name of fs.readdirSync(file)) latest = Math.max(latest, newest(path.join(file, name)));
  return latest;
}

const sources = Math.max(...['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => newest(path.join(root, f))));
const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const force = process.argv.includes('--force');
if (force || built < sources) {
  if (!force) {
    const why = built === 0 ? 'first build' : 'the sources changed since the last build';
    process.stderr.write(`building dist/ (${why})...\n`);
  }
  // The compiler's report goes to stderr: stdout stays the command's own (--json).
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (result.status !== 0) {
    process.stderr.write('the build failed; see the errors above\n');
    process.exit(result.status ?? 1);
  }
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
