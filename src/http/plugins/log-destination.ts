/**
 * Where the service's log lines go: standard output through an asynchronous, buffered writer
 * (pino's SonicBoom) instead of one blocking write per line.
 *
 * Why: at the default level every request writes a line, and a synchronous write per request was
 * the largest single cost of the cheapest answers (a 401 for an unknown key costs about a third
 * less without it): exactly the answers an attacker sends by the thousand. Lines are gathered up
 * to 8 KB and written when the buffer fills, at the latest every 250 ms, so a quiet service still
 * shows each line within a quarter of a second.
 *
 * Nothing is lost on a clean exit: pino registers the destination to be flushed synchronously when
 * the process exits (process.exit after a graceful shutdown, a fatal error, the end of the event
 * loop). A process killed with SIGKILL loses at most the last 250 ms of lines. If the reader of
 * standard output falls 64 MB behind, further lines are dropped (said once on stderr)
 * rather than letting memory grow without bound.
 */
import pino from 'pino';

const BUFFER_BYTES = 8 * 1024;
const FLUSH_EVERY_MS = 250;
const MAX_BEHIND_BYTES = 64 * 1024 * 1024;

export function bufferedStdout(): ReturnType<typeof pino.destination> {
  // Gathered as bytes, not text: in text mode SonicBoom appends each line to one growing string and
  // measures that whole string's UTF-8 length again at every line, then converts it at every
  // write; with bytes each line is converted once and a write joins the pieces. A GET offer
  // answered from memory cost about a fifth less CPU (docs/performance.md, the key check).
  const stream = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES, maxLength: MAX_BEHIND_BYTES, contentMode: 'buffer' });
  const writeBytes = stream.write.bind(stream) as unknown as (bytes: Buffer) => boolean;
  // pino hands the destination text; in this mode SonicBoom takes only bytes.
  stream.write = (line: string) => writeBytes(Buffer.from(line));
  // Said once: a stuck reader would otherwise get a line on stderr per dropped line.
  stream.once('drop', () => {
    process.stderr.write('log: standard output is not being read fast enough; dropping log lines\n');
  });
  const timer = setInterval(() => {
    // flush() throws once the stream is closing or destroyed (the end of the process).
    try {
      stream.flush();
    } catch {
      clearInterval(timer);
    }
  }, FLUSH_EVERY_MS);
  timer.unref();
  return stream;
}
