/**
 * Progress of a long bench on stderr: what runs now (scenario, round), how much is done and the
 * time left, estimated from the work done so far (each step carries a weight: its expected share of
 * the run, e.g. updates × peers). On a terminal one line is rewritten in place; in a log (npm test,
 * CI) a line is printed at most every 10 s, and at the end.
 */

/** "1 min 20 s", "45 s". */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
}

/**
 * @param {string} label what the whole run is ("core", "core A/B", "ui")
 * @param {number} totalWeight the sum of the weights of every step to come
 * @param {{ out?: NodeJS.WriteStream, now?: () => number, quiet?: boolean }} [options]
 */
export function createProgress(label, totalWeight, options = {}) {
  const out = options.out ?? process.stderr;
  const now = options.now ?? (() => Date.now());
  const tty = Boolean(out.isTTY);
  const quiet = options.quiet ?? process.env["BENCH_PROGRESS"] === "0";
  const start = now();
  let done = 0;
  let lastPrinted = -Infinity;
  let current = "";
  const line = () => {
    const elapsed = now() - start;
    const frac = totalWeight > 0 ? Math.min(1, done / totalWeight) : 0;
    const left = frac > 0 ? (elapsed / frac) * (1 - frac) : Number.NaN;
    return `[${label}] ${current} · ${Math.round(frac * 100)}% · ${frac > 0 ? `~${formatDuration(left)} left` : "estimating"} (${formatDuration(elapsed)} so far)`;
  };
  const print = (force) => {
    if (quiet) return;
    const t = now();
    if (tty) out.write(`\r\x1b[2K${line()}`);
    else if (force || t - lastPrinted >= 10_000) {
      out.write(`${line()}\n`);
      lastPrinted = t;
    }
  };
  return {
    /** Starts a step: `what` names it (scenario, round); call `advance` when it is done. */
    begin(what) {
      current = what;
      print(false);
    },
    /** Marks `weight` more of the run as done. */
    advance(weight = 1) {
      done += weight;
      print(false);
    },
    /** The estimate as text (for tests and for a final line). */
    text: line,
    end() {
      current = "done";
      done = totalWeight;
      if (quiet) return;
      if (tty) out.write(`\r\x1b[2K[${label}] done in ${formatDuration(now() - start)}\n`);
      else out.write(`[${label}] done in ${formatDuration(now() - start)}\n`);
    },
  };
}
