/**
 * The main thread's scheduler: the one owner of timers and animation frames in src/ui and
 * src/pages (lint bans the raw globals elsewhere). Components take `appScheduler.child()` and
 * dispose it on unmount.
 */
import { Scheduler } from "../protocol";

/* eslint-disable no-restricted-globals -- this is the owner the rule points everyone else to. */
export const appScheduler = new Scheduler({
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (id) => globalThis.clearInterval(id),
  requestAnimationFrame: typeof requestAnimationFrame === "function" ? (fn) => requestAnimationFrame(fn) : undefined,
  cancelAnimationFrame: typeof cancelAnimationFrame === "function" ? (id) => cancelAnimationFrame(id) : undefined,
  now: () => Date.now(),
});
/* eslint-enable no-restricted-globals */

export { Scheduler, sleep, type Cancel, type Timers } from "../protocol";
