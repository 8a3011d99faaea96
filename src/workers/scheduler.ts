/**
 * The worker thread's scheduler: the one owner of timers inside src/workers. A worker has no
 * animation frames, so `frame` falls back to a 16 ms timer there.
 */
import { Scheduler } from "../protocol";

/* eslint-disable no-restricted-globals -- this is the owner the rule points everyone else to. */
export const workerScheduler = new Scheduler({
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id),
  now: () => Date.now(),
});
/* eslint-enable no-restricted-globals */
