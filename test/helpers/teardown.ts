/**
 * Teardown that the harness registers itself: every test database, app and child process a test
 * file creates through the helpers is closed after the file's tests (test/setup.ts runs these),
 * whether or not the test closes it. Closing twice is harmless (every closer is idempotent).
 */
const closers = new Set<() => Promise<void> | void>();

/** Runs `close` after the current test file; returns a function that unregisters it. */
export function closeAfterFile(close: () => Promise<void> | void): () => void {
  closers.add(close);
  return () => closers.delete(close);
}

/** Runs and forgets every registered closer, most recent first. */
export async function closeAll(): Promise<void> {
  const pending = [...closers].reverse();
  closers.clear();
  for (const close of pending) {
    try {
      await close();
    } catch {
      // A closer that fails (a process already gone) must not hide the others.
    }
  }
}
