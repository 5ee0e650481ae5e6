/**
 * Turns the measurements into the three published forms: a Markdown table (printed and written to
 * bench/results/latest.md), the raw figures as JSON (latest.json) and a hand-written SVG chart
 * (latest.svg) of each scenario's requests/s as a ratio to the floor, with the issue's targets.
 */
import type { LoadResult } from './load.js';

export type CacheMode = 'on' | 'off';

export interface RunSummary {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** The server's CPU time per answer in microseconds (median of the rounds that measured it). */
  readonly cpuMicrosPerAnswer?: number;
}

export interface ScenarioOutcome {
  readonly id: string;
  readonly label: string;
  readonly mode: CacheMode;
  /** ok: measured; error: answered wrongly or failed (figures are not speed); n/a: not measurable. */
  readonly status: 'ok' | 'error' | 'n/a';
  readonly problem?: string;
  readonly poolSize: number;
  readonly rounds: readonly LoadResult[];
  readonly median?: RunSummary;
  /** Median requests/s divided by the floor's median in the same mode. */
  readonly ratioToFloor?: number;
  /**
   * The floor's CPU time per answer divided by the scenario's (medians, same mode): what the
   * scenario costs the server against the floor, however the cores were shared with the load.
   */
  readonly cpuRatioToFloor?: number;
  /** Median p99 divided by the floor's median p99 in the same mode. */
  readonly p99RatioToFloor?: number;
  readonly bytesPerResponse?: number;
  readonly peakRssMb?: number;
}

export interface FloorOutcome {
  readonly mode: CacheMode;
  readonly rounds: readonly LoadResult[];
  readonly median: RunSummary;
}

export interface ImportOutcome {
  readonly offers: number;
  readonly seconds: number;
  readonly offersPerSecond: number;
  readonly peakRssMb: number;
  readonly exitCode: number | string;
  readonly counts: unknown;
  readonly problem?: string;
}

export interface TargetOutcome {
  readonly name: string;
  readonly required: string;
  readonly measured: string;
  readonly result: 'pass' | 'fail' | 'error' | 'n/a';
}

export interface Machine {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGb: number;
  readonly node: string;
  readonly postgres: string;
  readonly os: string;
  readonly commit: string;
  readonly autocannon: string;
  /** 1-minute load average when the run started: other work on the machine makes figures noisy. */
  readonly loadAverageAtStart: number;
}

export interface BenchReport {
  readonly date: string;
  readonly quick: boolean;
  readonly machine: Machine;
  readonly settings: {
    readonly connections: number;
    readonly warmupSeconds: number;
    readonly durationSeconds: number;
    readonly rounds: number;
    /** LOG_LEVEL of the measured service (info: one log line per request, as in production). */
    readonly serviceLogLevel?: string;
  };
  readonly catalog: {
    readonly offers: number;
    readonly activeOffers: number;
    readonly organizations: number;
    readonly megabytes: number;
    readonly averageOfferBytes: number;
    readonly generationSeconds: number;
  };
  readonly database: { readonly size: string; readonly offersSize: string; readonly offersAnalyzed: string };
  readonly import: ImportOutcome;
  readonly floor: readonly FloorOutcome[];
  readonly scenarios: readonly ScenarioOutcome[];
  readonly xmlVsJson: Partial<Record<CacheMode, number>>;
  readonly servicePeakRssMb: Partial<Record<CacheMode, number>>;
  readonly targets: readonly TargetOutcome[];
  readonly notes: readonly string[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(rounds: readonly LoadResult[]): RunSummary {
  const cpu = rounds.flatMap((r) => (r.cpuMicrosPerAnswer === undefined ? [] : [r.cpuMicrosPerAnswer]));
  return {
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    ...(cpu.length > 0 ? { cpuMicrosPerAnswer: median(cpu) } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Targets of the issues (5, 10, 23, 24, 25), as ratios to the floor measured in the same run

function find(report: Pick<BenchReport, 'scenarios'>, id: string, mode: CacheMode): ScenarioOutcome | undefined {
  return report.scenarios.find((s) => s.id === id && s.mode === mode);
}

/** A ratio with two decimals, or two significant digits below 0.1 (0.0042×). */
const x = (value: number) => `${value >= 0.1 || value === 0 || !Number.isFinite(value) ? value.toFixed(2) : value.toPrecision(2)}×`;

function ratioTarget(report: Pick<BenchReport, 'scenarios'>, name: string, id: string, mode: CacheMode, minimum: number): TargetOutcome {
  const required = `≥ ${minimum}× floor req/s`;
  const outcome = find(report, id, mode);
  if (!outcome) return { name, required, measured: 'not run', result: 'n/a' };
  if (outcome.status !== 'ok' || outcome.ratioToFloor === undefined) {
    return { name, required, measured: outcome.problem ?? outcome.status, result: outcome.status === 'n/a' ? 'n/a' : 'error' };
  }
  return { name, required, measured: x(outcome.ratioToFloor), result: outcome.ratioToFloor >= minimum ? 'pass' : 'fail' };
}

/** The target judged on the lower ratio of the two cache modes (either mode alone when only one ran). */
function lowerOfBothModes(report: Pick<BenchReport, 'scenarios'>, name: string, id: string, minimum: number): TargetOutcome {
  const outcomes = (['on', 'off'] as const).map((mode) => ratioTarget(report, name, id, mode, minimum));
  const measured = outcomes.filter((o) => o.result === 'pass' || o.result === 'fail');
  const required = `≥ ${minimum}× floor req/s, cache on and off`;
  // A mode that answered wrongly is reported as such, whatever the other measured.
  const failed = outcomes.find((o) => o.result === 'error');
  if (failed) return { ...failed, required };
  if (measured.length === 0) return { ...outcomes[0]!, required };
  return {
    name,
    required,
    measured: outcomes.map((o) => (o.result === 'n/a' ? 'not run' : o.measured)).join(' / '),
    result: measured.every((o) => o.result === 'pass') ? 'pass' : 'fail',
  };
}

export function evaluateTargets(report: Pick<BenchReport, 'scenarios' | 'import' | 'xmlVsJson' | 'quick'>): TargetOutcome[] {
  const targets: TargetOutcome[] = [
    ratioTarget(report, 'GET offer by id, cache warm', 'offer-json', 'on', 0.5),
    ratioTarget(report, 'GET offer by id, cache off', 'offer-json', 'off', 0.12),
  ];

  const filtered = find(report, 'list-filtered', 'off');
  const filteredName = 'POST filtered + sorted list, distinct queries, cache off';
  const filteredRequired = '≥ 0.01× floor req/s, p99 ≤ 40× floor p99';
  if (!filtered || filtered.status !== 'ok' || filtered.ratioToFloor === undefined || filtered.p99RatioToFloor === undefined) {
    targets.push({ name: filteredName, required: filteredRequired, measured: filtered?.problem ?? 'not run', result: 'error' });
  } else {
    const pass = filtered.ratioToFloor >= 0.01 && filtered.p99RatioToFloor <= 40;
    targets.push({
      name: filteredName,
      required: filteredRequired,
      measured: `${x(filtered.ratioToFloor)}, p99 ${x(filtered.p99RatioToFloor)}`,
      result: pass ? 'pass' : 'fail',
    });
  }

  targets.push(ratioTarget(report, 'POST list (default page), cache warm', 'list-default', 'on', 0.3));
  targets.push(ratioTarget(report, 'POST filtered list, cache warm', 'list-filtered', 'on', 0.3));

  // Revalidation is measured with the cache on: that is how the service runs by default.
  const revalidate = ratioTarget(report, '304 revalidation', 'revalidate-304', 'on', 0.7);
  targets.push(revalidate);

  const xml = report.xmlVsJson.off;
  targets.push({
    name: 'XML page of 100 offers vs JSON page (cache off)',
    required: '≤ 2× the cost',
    measured: xml === undefined ? 'not measured (see the page-of-100 rows)' : x(xml),
    result: xml === undefined ? 'error' : xml <= 2 ? 'pass' : 'fail',
  });

  // Issue 10: the search extensions, distinct bodies, cache off.
  targets.push(ratioTarget(report, 'POST search-box query, cache off', 'search-box', 'off', 0.01));
  targets.push(ratioTarget(report, 'POST radius query sorted by distance, cache off', 'radius', 'off', 0.01));
  targets.push(ratioTarget(report, 'POST facets (4 facets, 2 stats, 3 filters), cache off', 'facets', 'off', 0.02));
  targets.push(ratioTarget(report, 'GET changes, page of 1,000, cache off', 'changes', 'off', 0.01));
  // Issues 24 and 25: files served from the service's own memory (the response cache plays no part).
  targets.push(ratioTarget(report, "GET today's price CSV (10,000 offers, gzip), from memory", 'prices-csv', 'on', 0.05));
  targets.push(ratioTarget(report, 'GET a cached photo variant', 'photo-variant', 'on', 0.3));

  // Issue 23: what a flood of bad keys costs, with request logs on. The refusal does not depend on
  // the response cache, so both modes count: the lower of the two ratios is the one judged.
  targets.push(lowerOfBothModes(report, 'GET organization without a key → 401', 'unauthorized-401', 0.8));
  targets.push(lowerOfBothModes(report, 'GET organization with an unknown key → 401', 'invalid-key-401', 0.8));
  targets.push(lowerOfBothModes(report, 'GET organization with a new unknown key each time → 401', 'invalid-key-401-flood', 0.8));

  const imported = report.import;
  const importName = `import of ${imported.offers.toLocaleString('en-US')} offers${report.quick ? ' (quick catalog)' : ''}`;
  if (imported.problem) {
    targets.push({ name: importName, required: '≥ 2,000 offers/s, peak RSS ≤ 300 MB', measured: imported.problem, result: 'error' });
  } else {
    targets.push({
      name: importName,
      required: '≥ 2,000 offers/s, peak RSS ≤ 300 MB',
      measured: `${Math.round(imported.offersPerSecond).toLocaleString('en-US')} offers/s, ${Math.round(imported.peakRssMb)} MB`,
      result: imported.offersPerSecond >= 2000 && imported.peakRssMb <= 300 ? 'pass' : 'fail',
    });
  }
  return targets;
}

// ---------------------------------------------------------------------------------------------
// Markdown

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const kb = (bytes: number) => (bytes >= 10_240 ? `${int(bytes / 1024)} KB` : `${(bytes / 1024).toFixed(1)} KB`);

/** Text safe inside a Markdown table cell. */
const safe = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');

function cell(outcome: ScenarioOutcome | undefined): [string, string, string] {
  if (!outcome) return ['–', '–', '–'];
  if (outcome.status === 'n/a') return [safe(outcome.problem ?? 'n/a'), '–', '–'];
  if (outcome.status === 'error' || !outcome.median) return [`**ERROR**: ${safe(outcome.problem ?? 'failed')}`, '–', '–'];
  return [
    int(outcome.median.requestsPerSecond),
    x(outcome.ratioToFloor ?? NaN),
    `${ms(outcome.median.p50)} / ${ms(outcome.median.p99)}`,
  ];
}

/**
 * The server's CPU time per answer beside the floor's: on a machine whose cores the server shares
 * with the load generator, requests/s also measure how the cores were shared; this does not.
 */
function cpuTable(report: BenchReport, ids: readonly string[]): string[] {
  const floorMicros = (mode: CacheMode) => report.floor.find((f) => f.mode === mode)?.median.cpuMicrosPerAnswer;
  if (floorMicros('on') === undefined && floorMicros('off') === undefined) return [];
  const us = (micros: number | undefined) => (micros === undefined ? '–' : micros >= 100 ? int(micros) : micros.toFixed(1));
  const cpuCell = (outcome: ScenarioOutcome | undefined) =>
    outcome?.status === 'ok' && outcome.median?.cpuMicrosPerAnswer !== undefined
      ? [us(outcome.median.cpuMicrosPerAnswer), x(outcome.cpuRatioToFloor ?? NaN)]
      : ['–', '–'];
  const lines = [
    `Server CPU per answer (user + system time of the server's process over the measured seconds, divided by its answers; ` +
      `medians of the rounds): the floor ${us(floorMicros('on'))} µs beside cache on, ${us(floorMicros('off'))} µs beside cache off. ` +
      '“× floor CPU” is the floor’s CPU per answer divided by the scenario’s.',
    '',
    '| Scenario | cache on: µs per answer | × floor CPU | cache off: µs per answer | × floor CPU |',
    '|---|--:|--:|--:|--:|',
  ];
  for (const id of ids) {
    const on = find(report, id, 'on');
    const off = find(report, id, 'off');
    lines.push(`| ${(on ?? off)!.label} | ${cpuCell(on).join(' | ')} | ${cpuCell(off).join(' | ')} |`);
  }
  lines.push('');
  return lines;
}

export function toMarkdown(report: BenchReport): string {
  const m = report.machine;
  const lines: string[] = [];
  lines.push(`### Benchmark${report.quick ? ' (quick run: small catalog, 1 round — not the published figures)' : ''}`);
  lines.push('');
  lines.push(
    `${report.date.slice(0, 16).replace('T', ' ')} UTC · ${m.cpus} × ${m.cpuModel} · ${m.memoryGb} GB RAM · ${m.os} · Node ${m.node} · ${m.postgres} · commit ${m.commit} · load average at start ${m.loadAverageAtStart.toFixed(2)}`,
  );
  lines.push('');
  lines.push(
    `Catalog: ${int(report.catalog.offers)} offers (${int(report.catalog.activeOffers)} active) across ${report.catalog.organizations} organizations, ` +
      `${int(report.catalog.averageOfferBytes)} bytes per offer record, ${int(report.catalog.megabytes)} MB of NDJSON; database ${report.database.size} ` +
      `(offers ${report.database.offersSize}, planner statistics: ${report.database.offersAnalyzed}).`,
  );
  lines.push(
    `Load: autocannon ${m.autocannon}, ${report.settings.connections} connections over loopback, ${report.settings.warmupSeconds} s warm-up, ` +
      `${report.settings.durationSeconds} s measured, ${report.settings.rounds} round(s) alternating floor and service; figures are medians of the rounds. ` +
      `The service logs at ${report.settings.serviceLogLevel ?? 'warn'}${report.settings.serviceLogLevel === 'info' ? ' (one line per request, to a file)' : ''}.`,
  );
  lines.push('');
  for (const floor of report.floor) {
    const values = floor.rounds.map((r) => r.requestsPerSecond);
    lines.push(
      `Floor (bare Fastify, 17-byte JSON), rounds beside cache ${floor.mode}: ${int(floor.median.requestsPerSecond)} req/s ` +
        `(rounds ${values.map(int).join(', ')}), p50 ${ms(floor.median.p50)} ms, p99 ${ms(floor.median.p99)} ms.`,
    );
    lines.push('');
  }

  lines.push('| Scenario | cache on: req/s | × floor | p50 / p99 ms | cache off: req/s | × floor | p50 / p99 ms | response |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|');
  const ids = [...new Set(report.scenarios.map((s) => s.id))];
  for (const id of ids) {
    const on = find(report, id, 'on');
    const off = find(report, id, 'off');
    const label = (on ?? off)!.label;
    const size = on?.bytesPerResponse ?? off?.bytesPerResponse;
    lines.push(`| ${label} | ${cell(on).join(' | ')} | ${cell(off).join(' | ')} | ${size ? kb(size) : '–'} |`);
  }
  lines.push('');
  lines.push(...cpuTable(report, ids));
  const rss = report.servicePeakRssMb;
  lines.push(
    `Service peak RSS: ${rss.on !== undefined ? `${Math.round(rss.on)} MB with the cache on` : 'n/a'}, ` +
      `${rss.off !== undefined ? `${Math.round(rss.off)} MB with it off` : 'n/a'}. ` +
      `XML vs JSON, page of 100 offers with all includes: XML costs ${report.xmlVsJson.off !== undefined ? x(report.xmlVsJson.off) : 'n/a'} the JSON page (cache off), ` +
      `${report.xmlVsJson.on !== undefined ? x(report.xmlVsJson.on) : 'n/a'} (cache on).`,
  );
  lines.push('');
  const imp = report.import;
  lines.push(
    imp.problem
      ? `Import: **ERROR**: ${safe(imp.problem)}`
      : `Import of ${int(imp.offers)} offers through the CLI: ${imp.seconds.toFixed(1)} s, ${int(imp.offersPerSecond)} offers/s, peak RSS ${Math.round(imp.peakRssMb)} MB.`,
  );
  lines.push('');
  lines.push('| Target (issues 5, 10, 23, 24 and 25) | required | measured | result |');
  lines.push('|---|---|---|---|');
  for (const t of report.targets) {
    const mark = t.result === 'pass' ? '✅ pass' : t.result === 'fail' ? '❌ fail' : t.result === 'error' ? '⚠️ error' : 'n/a';
    lines.push(`| ${t.name} | ${t.required} | ${safe(t.measured)} | ${mark} |`);
  }
  if (report.notes.length > 0) {
    lines.push('');
    for (const note of report.notes) lines.push(`- ${note}`);
  }
  lines.push('');
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// SVG: one row per scenario, a bar for the cache on and one for it off, on a log scale of the
// ratio to the floor (the figures span three orders of magnitude), with the target marked.

const TARGET_MARKS: Record<string, { mode: CacheMode; ratio: number }[]> = {
  'offer-json': [
    { mode: 'on', ratio: 0.5 },
    { mode: 'off', ratio: 0.12 },
  ],
  'list-filtered': [
    { mode: 'off', ratio: 0.01 },
    { mode: 'on', ratio: 0.3 },
  ],
  'list-default': [{ mode: 'on', ratio: 0.3 }],
  'revalidate-304': [{ mode: 'on', ratio: 0.7 }],
};

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function toSvg(report: BenchReport): string {
  const ids = [...new Set(report.scenarios.map((s) => s.id))];
  const labelWidth = 330;
  const plotWidth = 520;
  const valueWidth = 150;
  const rowHeight = 34;
  const top = 78;
  const width = labelWidth + plotWidth + valueWidth + 20;
  const height = top + ids.length * rowHeight + 56;
  const minLog = -4; // 0.0001×
  const maxLog = 0.3; // 2×
  const xOf = (ratio: number) => labelWidth + ((Math.log10(Math.max(ratio, 10 ** minLog)) - minLog) / (maxLog - minLog)) * plotWidth;
  const colors: Record<CacheMode, string> = { on: '#2563eb', off: '#93c5fd' };
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">`);
  out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  const floorRps = median(report.floor.flatMap((f) => f.rounds.map((r) => r.requestsPerSecond)));
  out.push(
    `<text x="12" y="22" font-size="15" font-weight="600" fill="#111827">Requests/s as a ratio to the floor (bare Fastify, 17-byte JSON: ${Math.round(floorRps).toLocaleString('en-US')} req/s)</text>`,
  );
  out.push(
    `<text x="12" y="42" fill="#4b5563">${escapeXml(
      `${report.date.slice(0, 10)} · ${report.machine.cpus} × ${report.machine.cpuModel} · Node ${report.machine.node} · ${report.machine.postgres.split(' on ')[0]} · ${report.catalog.offers.toLocaleString('en-US')} offers${report.quick ? ' · QUICK RUN' : ''}`,
    )}</text>`,
  );
  // legend
  out.push(`<rect x="12" y="54" width="12" height="10" fill="${colors.on}"/><text x="28" y="63" fill="#111827">cache on</text>`);
  out.push(`<rect x="92" y="54" width="12" height="10" fill="${colors.off}"/><text x="108" y="63" fill="#111827">cache off</text>`);
  out.push(`<line x1="180" y1="59" x2="192" y2="59" stroke="#dc2626" stroke-width="2"/><text x="197" y="63" fill="#111827">target</text>`);
  out.push(`<text x="250" y="63" fill="#b91c1c">ERROR = answered wrongly or failed</text>`);
  // grid
  for (let p = minLog; p <= 0; p++) {
    const gx = xOf(10 ** p);
    out.push(`<line x1="${gx.toFixed(1)}" y1="${top - 6}" x2="${gx.toFixed(1)}" y2="${top + ids.length * rowHeight}" stroke="#e5e7eb"/>`);
    const tick = p === 0 ? '1' : `0.${'0'.repeat(-p - 1)}1`;
    out.push(`<text x="${gx.toFixed(1)}" y="${top + ids.length * rowHeight + 16}" text-anchor="middle" fill="#6b7280">${tick}×</text>`);
  }
  out.push(`<text x="${labelWidth + plotWidth / 2}" y="${top + ids.length * rowHeight + 36}" text-anchor="middle" fill="#6b7280">× floor requests/s (log scale)</text>`);

  ids.forEach((id, row) => {
    const y = top + row * rowHeight;
    const on = find(report, id, 'on');
    const off = find(report, id, 'off');
    const label = (on ?? off)!.label;
    out.push(`<text x="${labelWidth - 8}" y="${y + 19}" text-anchor="end" fill="#111827">${escapeXml(label)}</text>`);
    (['on', 'off'] as const).forEach((mode, i) => {
      const outcome = mode === 'on' ? on : off;
      const barY = y + 4 + i * 13;
      if (!outcome) return;
      if (outcome.status !== 'ok' || outcome.ratioToFloor === undefined) {
        const text = outcome.status === 'n/a' ? (outcome.problem ?? 'n/a') : 'ERROR';
        out.push(`<text x="${labelWidth + 4}" y="${barY + 10}" fill="${outcome.status === 'n/a' ? '#6b7280' : '#b91c1c'}" font-weight="600">${escapeXml(text)}</text>`);
        return;
      }
      const end = xOf(outcome.ratioToFloor);
      out.push(`<rect x="${labelWidth}" y="${barY}" width="${Math.max(1, end - labelWidth).toFixed(1)}" height="11" fill="${colors[mode]}"/>`);
      out.push(
        `<text x="${labelWidth + plotWidth + 8}" y="${barY + 10}" fill="#374151">${escapeXml(
          `${x(outcome.ratioToFloor)} · ${Math.round(outcome.median!.requestsPerSecond).toLocaleString('en-US')}/s`,
        )}</text>`,
      );
    });
    for (const mark of TARGET_MARKS[id] ?? []) {
      const mx = xOf(mark.ratio);
      const markY = y + 2 + (mark.mode === 'on' ? 0 : 13);
      out.push(`<line x1="${mx.toFixed(1)}" y1="${markY}" x2="${mx.toFixed(1)}" y2="${markY + 15}" stroke="#dc2626" stroke-width="2"/>`);
    }
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
