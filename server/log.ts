/**
 * The server's error log: one line with where it happened and the stack, on stderr. Every boundary
 * that must not let an exception escape (socket messages, request handlers, timers, microtasks)
 * reports here and carries on.
 */
export function logError(where: string, err: unknown): void {
  const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`[exchange] error in ${where}: ${text}\n`);
}

/** Runs `fn`, logging (never rethrowing) what it throws; for timers and other callbacks without a caller. */
export function guarded<A extends unknown[]>(where: string, fn: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      fn(...args);
    } catch (e) {
      logError(where, e);
    }
  };
}
