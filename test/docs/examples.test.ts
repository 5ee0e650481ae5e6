/**
 * Bundle examples in the docs import as they are. A code block right after an HTML comment
 * `<!-- bundle example ... -->` (a ```json bundle or an ```ndjson one) is imported with the real
 * import into a fresh database, so a pasted example always works.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importBundle, openBundleFile } from '../../src/import/index.js';
import { createTestDb } from '../helpers/db.js';
import { projectRoot } from '../helpers/processes.js';

interface Example {
  file: string;
  line: number;
  format: 'json' | 'ndjson';
  text: string;
}

function examples(): Example[] {
  const files = ['README.md', ...(fs.readdirSync(path.join(projectRoot, 'docs')) as string[]).map((f) => path.join('docs', f))];
  const found: Example[] = [];
  for (const file of files.filter((f) => f.endsWith('.md'))) {
    const text = fs.readFileSync(path.join(projectRoot, file), 'utf8');
    for (const match of text.matchAll(/<!-- bundle example[^>]*-->\s*\n```(json|ndjson)\n([\s\S]*?)\n```/g)) {
      found.push({ file, line: text.slice(0, match.index).split('\n').length, format: match[1] as 'json' | 'ndjson', text: match[2]! });
    }
  }
  return found;
}

describe('bundle examples of the docs', () => {
  const all = examples();

  it('there are some', () => {
    expect(all.length).toBeGreaterThan(0);
  });

  for (const example of all) {
    it(`${example.file}:${example.line} imports as it is`, async () => {
      const t = await createTestDb();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-doc-example-'));
      try {
        const file = path.join(dir, `example.${example.format}`);
        fs.writeFileSync(file, example.text);
        const report = await importBundle(t.db, await openBundleFile(file));
        expect(report.records).toBeGreaterThan(0);
        expect(report.changed).toBe(true);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        await t.destroy();
      }
    });
  }
});
