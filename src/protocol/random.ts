/**
 * The one seeded pseudo-random generator of the project (mulberry32): the market simulators, the
 * stress source, the bench's streams and the fuzz tests all draw from it, so one seed reproduces a
 * whole run. Fast and small, not for anything secret.
 */

/** A generator of numbers in [0, 1), the same sequence for the same seed (taken as a uint32). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
