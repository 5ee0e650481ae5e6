/**
 * A pino destination that keeps every log line in memory, for tests that read what the app logged.
 *
 *   const log = captureLog();
 *   const t = await buildTestApp({ logger: log.options('info') });
 *   ... log.text() ...
 */
import { Writable } from 'node:stream';

export interface LogCapture {
  /** Fastify logger options writing into this capture. */
  options(level: string): { level: string; stream: Writable };
  /** Everything logged so far, one JSON line per entry. */
  text(): string;
  lines(): Array<Record<string, unknown>>;
}

export function captureLog(): LogCapture {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const text = () => chunks.join('');
  return {
    options: (level) => ({ level, stream }),
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
