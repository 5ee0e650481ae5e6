/**
 * How results look: plain tables for people, one JSON document for scripts (--json).
 */
import type { KeySummary } from '../features/access/index.js';
import type { WebsiteSummary } from '../features/access/index.js';
import { plural } from '../text/plural.js';
import { describeWebsiteScope } from '../features/access/index.js';
import { formatProblem, ImportRejectedError, REPORT_KINDS, type ImportReport, type Problem } from '../import/index.js';

/** How many problems a failed import prints (all of them are counted). */
export const PRINTED_PROBLEMS = 50;

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>, alignRight: ReadonlySet<number> = new Set()): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (alignRight.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].map((l) => `  ${l}`).join('\n') + '\n';
}

/**
 * import --json: counts per kind (offers also with pruned), records read, content version, and the
 * websites that existed and whose scope the import changed (empty when none did).
 */
export function importReportJson(report: ImportReport): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kind of REPORT_KINDS) out[kind] = { ...report.counts[kind] };
  (out.offers as Record<string, number>).pruned = report.pruned;
  out.records = report.records;
  out.content_version = report.contentVersion;
  out.scope_changes = report.scopeChanges.map((c) => ({ website_id: c.website_id, previous_scope: c.previous_scope, scope: c.scope }));
  return out;
}

export function importReportText(source: string, report: ImportReport, seconds: number, prune: boolean): string {
  const rows = REPORT_KINDS.map((kind) => {
    const c = report.counts[kind];
    return [kind, String(c.created), String(c.changed), String(c.unchanged)];
  });
  let text = `Imported ${source}: ${plural(report.records, 'record')} in ${seconds.toFixed(1)} s\n`;
  text += table(['', 'created', 'changed', 'unchanged'], rows, new Set([1, 2, 3]));
  if (prune) text += `  offers made inactive by --prune: ${report.pruned}\n`;
  for (const c of report.scopeChanges) {
    text += `Website ${c.website_id} now sees: ${describeWebsiteScope(c.scope)} (it saw: ${describeWebsiteScope(c.previous_scope)}).\n`;
  }
  text += report.changed
    ? `Content version is now ${report.contentVersion}.\n`
    : `Nothing changed (content version stays ${report.contentVersion}).\n`;
  return text;
}

interface Streams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** A rejected import's problems (import, mirror): JSON on stdout with --json, else lines on stderr; other errors print nothing here. */
export function reportRejectedImport(io: Streams, error: unknown, asJson: boolean): void {
  if (!(error instanceof ImportRejectedError)) return;
  if (asJson) io.stdout.write(json({ error: error.message, problem_count: error.problemCount, problems: error.problems }));
  else io.stderr.write(problemLines(error.problems, error.problemCount));
}

export function problemLines(problems: readonly Problem[], total: number): string {
  const shown = problems.slice(0, PRINTED_PROBLEMS);
  let text = shown.map((p) => `${formatProblem(p)}\n`).join('');
  if (total > shown.length) text += `… and ${(total - shown.length).toLocaleString('en-US')} more\n`;
  return text;
}

/** keys list --json: never the key, never its hash. */
export function keyJson(k: KeySummary): Record<string, unknown> {
  return {
    key_id: k.key_id,
    website_id: k.website_id,
    label: k.label,
    key_prefix: k.key_prefix,
    is_active: k.is_active,
    status: k.status,
    expires_at: k.expires_at,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
  };
}

/** A scope in a table cell: what it restricts, counted ("2 investments, 1 offer type"). */
function scopeCell(scope: WebsiteSummary['scope']): string {
  if (!scope) return 'whole organization';
  const parts: string[] = [];
  if (scope.investment_ids) parts.push(plural(scope.investment_ids.length, 'investment'));
  if (scope.branch_ids) parts.push(plural(scope.branch_ids.length, 'branch', 'branches'));
  if (scope.offer_types) parts.push(scope.offer_types.join(' '));
  return parts.join(', ');
}

export function websitesText(websites: readonly WebsiteSummary[]): string {
  if (websites.length === 0) return 'No websites.\n';
  return table(
    ['WEBSITE ID', 'ORGANIZATION', 'NAME', 'KEYS', 'SCOPE'],
    websites.map((w) => [w.website_id, w.organization_id, w.name, `${w.active_keys}/${w.keys}`, scopeCell(w.scope)]),
  );
}

export function keysText(keys: readonly KeySummary[]): string {
  if (keys.length === 0) return 'No API keys.\n';
  return table(
    ['KEY ID', 'WEBSITE', 'PREFIX', 'STATUS', 'EXPIRES', 'CREATED', 'LAST USED', 'LABEL'],
    keys.map((k) => [
      k.key_id,
      k.website_id,
      k.key_prefix ? `${k.key_prefix}…` : '(imported hash)',
      k.status,
      k.expires_at ?? 'never',
      k.created_at,
      k.last_used_at ?? 'never',
      k.label ?? '',
    ]),
  );
}
