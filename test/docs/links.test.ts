/**
 * The docs stand alone in a clone of the repository: every relative link of README.md and docs/
 * points to a file inside the repository that exists, and every #anchor to a heading of its page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/processes.js';

function markdownFiles(): string[] {
  const docs = fs.readdirSync(path.join(projectRoot, 'docs'), { recursive: true }) as string[];
  return ['README.md', ...docs.filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(path.join(projectRoot, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = anchorOf(match[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Links of a markdown file outside code blocks: [text](target). */
function linksOf(file: string): string[] {
  const text = fs.readFileSync(path.join(projectRoot, file), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('documentation links', () => {
  const files = markdownFiles();

  it('finds the README and the docs', () => {
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThan(3);
  });

  for (const file of files) {
    it(`${file}: holds no merge conflict markers`, () => {
      const text = fs.readFileSync(path.join(projectRoot, file), 'utf8');
      expect(text).not.toMatch(/^(<{7} |>{7} |={7}$)/m);
    });
    it(`${file}: every relative link resolves inside the repository`, () => {
      const problems: string[] = [];
      for (const link of linksOf(file)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        const [target, anchor] = link.split('#') as [string, string | undefined];
        const resolved = target === '' ? path.join(projectRoot, file) : path.resolve(projectRoot, path.dirname(file), target);
        if (!resolved.startsWith(projectRoot)) {
          problems.push(`${link}: outside the repository`);
          continue;
        }
        if (!fs.existsSync(resolved)) {
          problems.push(`${link}: no such file`);
          continue;
        }
        if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(path.relative(projectRoot, resolved)).has(anchor)) {
          problems.push(`${link}: no heading for #${anchor}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('never names the working material outside the repository', () => {
    for (const file of files) expect(fs.readFileSync(path.join(projectRoot, file), 'utf8'), file).not.toMatch(/\.\.\/shared\//);
  });
});
