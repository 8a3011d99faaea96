/**
 * A Scheduler over vitest's fake timers, for the cores that take injected timers.
 * Call vi.useFakeTimers() before creating one.
 */
import { Scheduler } from "../../src/protocol/index.ts";

export function fakeScheduler(): Scheduler {
  return new Scheduler({
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (id) => clearInterval(id),
    now: () => Date.now(),
  });
}
