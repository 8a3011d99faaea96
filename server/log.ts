/**
 * The server's error log: one line with where it happened and the stack, on stderr. Every boundary
 * that must not let an exception escape (socket messages, request handlers, timers, microtasks)
 * reports here and carries on.
 */
export function logError(where: string, err: unknown): void {
  const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`[exchange] error in ${where}: ${text}\n`);
}

/**
 * Hands `event` to every listener even when one throws: each must see it (a batch's listeners
 * include the sockets that send its book diff). The first error is rethrown afterwards, so inside
 * an account's transaction it still rolls that transaction back.
 */
export function notifyAll<T>(listeners: Iterable<(event: T) => void>, event: T): void {
  let failure: { error: unknown } | null = null;
  for (const l of listeners) {
    try {
      l(event);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
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
