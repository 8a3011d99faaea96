/**
 * A Scheduler over the global timers, for the cores that take injected timers: vitest's fake
 * timers when a test called vi.useFakeTimers() first, the real ones otherwise.
 */
import { Scheduler } from "../../src/protocol/index.ts";

export function globalScheduler(): Scheduler {
  return new Scheduler({
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (id) => clearInterval(id),
    now: () => Date.now(),
  });
}
