/** Full reports per place and minute; past it, errors there are counted and summed up in one line. */
export const LOG_REPORTS_PER_MINUTE = 5;
const WINDOW_MS = 60_000;
const windows = new Map<string, { start: number; reported: number; suppressed: number; last: string }>();

/**
 * The server's error log on stderr. Every boundary that must not let an exception escape (socket
 * messages, request handlers, timers, microtasks) reports here and carries on. A client can cause
 * errors at will (a deeply nested frame each message), so each place logs its first
 * LOG_REPORTS_PER_MINUTE errors a minute with the stack and only counts the rest: the next report
 * there says how many were left out. The log cannot be used to fill the disk.
 */
export function logError(where: string, err: unknown, now = Date.now()): void {
  let w = windows.get(where);
  if (!w || now - w.start >= WINDOW_MS) {
    if (w && w.suppressed > 0)
      write(`[exchange] ${w.suppressed} more errors in ${where} in the last minute (last: ${w.last})`);
    w = { start: now, reported: 0, suppressed: 0, last: "" };
    windows.set(where, w);
  }
  const line = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  if (w.reported >= LOG_REPORTS_PER_MINUTE) {
    w.suppressed++;
    w.last = line.slice(0, 200);
    return;
  }
  w.reported++;
  const text = err instanceof Error ? (err.stack ?? line) : line;
  write(`[exchange] error in ${where}: ${text}`);
}

function write(line: string): void {
  process.stderr.write(`${line}\n`);
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
