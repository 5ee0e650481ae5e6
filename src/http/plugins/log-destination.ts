/**
 * Where the service's log lines go: standard output through an asynchronous, buffered writer
 * (pino's SonicBoom) instead of one blocking write per line.
 *
 * Why: at the default level every request writes a line, and a synchronous write per request was
 * the largest single cost of the cheapest answers (a 401 for an unknown key costs about a third
 * less without it): exactly the answers an attacker sends by the thousand. Lines are gathered as
 * bytes up to 64 KB and written a batch at a time, at the latest every 250 ms, so a quiet service
 * still shows each line within a quarter of a second.
 *
 * Nothing is lost on a clean exit: pino registers the destination to be flushed synchronously when
 * the process exits (process.exit after a graceful shutdown, a fatal error, the end of the event
 * loop). A process killed with SIGKILL loses at most the last 250 ms of lines. If the reader of
 * standard output falls 64 MB behind, further lines are dropped (said once on stderr)
 * rather than letting memory grow without bound.
 */
import pino from 'pino';

const BUFFER_BYTES = 8 * 1024;
/** Lines are handed to the writer as one piece once this many bytes have gathered. */
const GATHER_BYTES = 64 * 1024;
const FLUSH_EVERY_MS = 250;
const MAX_BEHIND_BYTES = 64 * 1024 * 1024;
/** The most bytes a UTF-16 code unit becomes in UTF-8: room for a line is checked without measuring it. */
const MAX_BYTES_PER_UNIT = 3;

/** The destination of standard output (`dest`: another file descriptor, for tests). */
export function bufferedStdout(dest = 1): ReturnType<typeof pino.destination> {
  // The writer (SonicBoom) takes bytes, not text: in text mode it appends each line to one growing
  // string and measures that whole string's UTF-8 length again at every line. Each line is written
  // here into a byte buffer instead, which goes to the writer once full enough: gathering the lines
  // as one string and converting it once per batch cost about 1 µs a line, this 0.3 µs
  // (docs/performance.md, the key check).
  const stream = pino.destination({ dest, sync: false, minLength: BUFFER_BYTES, maxLength: MAX_BEHIND_BYTES, contentMode: 'buffer' });
  const writeBytes = stream.write.bind(stream) as unknown as (bytes: Buffer) => boolean;
  const room = GATHER_BYTES + 16 * 1024;
  const batch = Buffer.allocUnsafe(room);
  let used = 0;
  const handOver = () => {
    if (used === 0) return;
    // A copy of its size: the writer may keep it queued, and the batch is written over next.
    const bytes = Buffer.from(batch.subarray(0, used));
    used = 0;
    writeBytes(bytes);
  };
  // pino hands the destination text, a line at a time.
  stream.write = (line: string) => {
    if (used + line.length * MAX_BYTES_PER_UNIT > room) {
      handOver();
      // A line longer than a batch goes on its own.
      if (line.length * MAX_BYTES_PER_UNIT > room) {
        writeBytes(Buffer.from(line));
        return true;
      }
    }
    used += batch.write(line, used);
    if (used >= GATHER_BYTES) handOver();
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
