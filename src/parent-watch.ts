/**
 * The service started by `npm start` must stop when npm does: a newcomer or a process manager
 * sees npm's process id, not ours. package.json starts the server with `exec node dist/server.js`,
 * so the shell npm runs the script in (dash on Debian and Ubuntu, which does not exec on its own)
 * is replaced by node: npm's process is our parent, and the SIGTERM / SIGINT that npm forwards to
 * its child reaches us. Without `exec`, npm forwarded the signal to the shell, the shell died and
 * the server went on serving, orphaned, holding the port and DATA_DIR's lock.
 *
 * This is the backstop for the cases where no signal can arrive: npm killed with SIGKILL, a shell
 * that does not understand `exec`. Started from an npm script (npm sets npm_lifecycle_event), the
 * process checks once a second that its parent is still there, and when it has gone, stops as if
 * it had received SIGTERM (the same graceful shutdown).
 */

/** How often the parent is looked for. */
const CHECK_EVERY_MS = 1_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is only not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Watches the parent process when npm started this one; calls `onGone` once if it goes away. */
export function stopWithNpmParent(onGone: () => void): void {
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  // Already adopted by init (or a container's first process): nothing to watch.
  if (parent <= 1) return;
  const timer = setInterval(() => {
    if (alive(parent)) return;
    clearInterval(timer);
    onGone();
  }, CHECK_EVERY_MS);
  timer.unref();
}
