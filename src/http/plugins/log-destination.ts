/**
 * Where the service's log lines go: standard output through an asynchronous, buffered writer
 * (pino's SonicBoom) instead of one blocking write per line.
 *
 * Why: at the default level every request writes a line, and a synchronous write per request was
 * the largest single cost of the cheapest answers (a 401 for an unknown key costs about a third
 * less without it): exactly the answers an attacker sends by the thousand. Lines are gathered as
 * text up to 64 K characters, turned into bytes once per batch and written, at the latest every
 * 250 ms, so a quiet service still shows each line within a quarter of a second.
 *
 * Nothing is lost on a clean exit: pino registers the destination to be flushed synchronously when
 * the process exits (process.exit after a graceful shutdown, a fatal error, the end of the event
 * loop). A process killed with SIGKILL loses at most the last 250 ms of lines. If the reader of
 * standard output falls 64 MB behind, further lines are dropped (said once on stderr)
 * rather than letting memory grow without bound.
 */
import pino from 'pino';

const BUFFER_BYTES = 8 * 1024;
/** Lines are handed to the writer as one piece once this many characters have gathered. */
const GATHER_CHARS = 64 * 1024;
const FLUSH_EVERY_MS = 250;
const MAX_BEHIND_BYTES = 64 * 1024 * 1024;

export function bufferedStdout(): ReturnType<typeof pino.destination> {
  // The writer (SonicBoom) takes bytes, not text: in text mode it appends each line to one growing
  // string and measures that whole string's UTF-8 length again at every line. Lines are gathered
  // here as text instead (appending to a string is cheap) and turned into bytes once per batch:
  // converting each line on its own cost about a microsecond per request (docs/performance.md,
  // the key check).
  const stream = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES, maxLength: MAX_BEHIND_BYTES, contentMode: 'buffer' });
  const writeBytes = stream.write.bind(stream) as unknown as (bytes: Buffer) => boolean;
  let gathered = '';
  const handOver = () => {
    if (gathered.length === 0) return;
    const text = gathered;
    gathered = '';
    writeBytes(Buffer.from(text));
  };
  // pino hands the destination text, a line at a time.
  stream.write = (line: string) => {
    gathered += line;
    if (gathered.length >= GATHER_CHARS) handOver();
    return true;
  };
  // Whatever flushes the writer (the timer below, pino's flush at exit, end) hands over first.
  const flush = stream.flush.bind(stream);
  stream.flush = (callback?: (error?: Error) => void) => {
    handOver();
    flush(callback);
  };
  const flushSync = stream.flushSync.bind(stream);
  stream.flushSync = () => {
    handOver();
    flushSync();
  };
  const end = stream.end.bind(stream);
  stream.end = () => {
    handOver();
    end();
  };
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
