/**
 * Progress of a long import on stderr: a bar on a terminal, a line every 50,000 records
 * otherwise (logs, CI), nothing at all with --json.
 */
import cliProgress from 'cli-progress';
import type { ImportProgress } from '../import/index.js';
import type { Output } from './context.js';

export interface ProgressDisplay {
  update(progress: ImportProgress): void;
  stop(): void;
}

const LINE_EVERY = 50_000;
const count = (n: number) => n.toLocaleString('en-US');

export function createProgress(stderr: Output, options: { quiet: boolean }): ProgressDisplay {
  if (options.quiet) return { update() {}, stop() {} };
  if (stderr.isTTY) return barProgress(stderr);
  let nextLine = LINE_EVERY;
  let phase: ImportProgress['phase'] = 'reading';
  return {
    update(p) {
      if (p.phase !== phase) {
        phase = p.phase;
        nextLine = LINE_EVERY;
        stderr.write('reading the file again for offers that came before the entities they link to…\n');
      }
      while (p.records >= nextLine) {
        stderr.write(`${p.phase === 'reading' ? 'imported' : 'checked again'} ${count(nextLine)} records…\n`);
        nextLine += LINE_EVERY;
      }
    },
    stop() {},
  };
}

function barProgress(stderr: Output): ProgressDisplay {
  const bar = new cliProgress.SingleBar(
    {
      stream: stderr as NodeJS.WritableStream,
      format: '{phase} [{bar}] {percentage}% | {records} records',
      hideCursor: true,
      clearOnComplete: true,
      barsize: 30,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const total = p.totalBytes ?? 0;
      const payload = { phase: p.phase === 'reading' ? 'importing' : 'second pass', records: count(p.records) };
      if (!started) {
        bar.start(Math.max(1, total), 0, payload);
        started = true;
      }
      bar.update(Math.min(p.bytesRead, Math.max(1, total)), payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
