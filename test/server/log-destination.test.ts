/**
 * The log destination (src/http/plugins/log-destination.ts) gathers lines as bytes in a batch and
 * writes a batch at a time: whatever the lines (any Unicode, lines longer than a batch, many short
 * ones), the file gets exactly the lines, in order, once flushed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { bufferedStdout } from '../../src/http/plugins/log-destination.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-log-destination-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** Writes the lines through a destination on a new file and returns the file's text once it has ended. */
async function throughDestination(lines: readonly string[]): Promise<string> {
  const file = path.join(dir, `log-${files++}.txt`);
  const destination = bufferedStdout(fs.openSync(file, 'w'));
  for (const line of lines) destination.write(line);
  // end() hands over what has gathered, writes it and closes the file.
  await new Promise((resolve) => {
    destination.once('close', resolve);
    destination.end();
  });
  const text = fs.readFileSync(file, 'utf8');
  fs.rmSync(file);
  return text;
}

describe('the buffered log destination', () => {
  it('writes every line, in order, whatever its length and characters', async () => {
    const line = fc.oneof(
      { weight: 8, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 20_000, maxLength: 40_000 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 100 }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line.map((text) => `${text}\n`), { maxLength: 60 }), async (lines) => {
        expect(await throughDestination(lines)).toBe(lines.join(''));
      }),
      { numRuns: 60 },
    );
  });

  it('hands over a batch once 64 KB have gathered, and keeps the rest for the next', async () => {
    // About 200 KB of request-sized lines: several batches and a remainder.
    const lines = Array.from({ length: 700 }, (_, i) => `{"n":${i},"url":"/api/v1/offers?q=${'ż'.repeat(i % 50)}"}${' '.repeat(250)}\n`);
    expect(await throughDestination(lines)).toBe(lines.join(''));
  });
});
