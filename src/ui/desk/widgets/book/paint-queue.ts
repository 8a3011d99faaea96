/**
 * Spreads the books' paints over animation frames. Every book's views come from the worker on the
 * same throttle clock, so 8 books on one desk get their views in the same few milliseconds; painted
 * on arrival (or all in the next frame) they made one long frame every throttle interval: every
 * visible row of every book laid out and painted at once (bench:ui: 20+ tasks over 50 ms in 3 s).
 * Here each frame paints at most `perFrame` books, the longest-waiting first; a book whose newer
 * view arrives while it waits is painted once, with the newest view.
 */
import type { Cancel, Timers } from "../../../../protocol";

export class PaintQueue {
  readonly #timers: Pick<Timers, "frame">;
  readonly #perFrame: number;
  /** Insertion order is the waiting order. */
  readonly #waiting = new Set<() => void>();
  #frame: Cancel | null = null;

  constructor(timers: Pick<Timers, "frame">, perFrame: number) {
    this.#timers = timers;
    this.#perFrame = Math.max(1, Math.trunc(perFrame));
  }

  /** Paints waiting to run (for tests and tools). */
  get size(): number {
    return this.#waiting.size;
  }

  /** Runs `paint` in a coming frame; a paint already waiting keeps its place. */
  request(paint: () => void): void {
    this.#waiting.add(paint);
    this.#frame ??= this.#timers.frame(() => this.#run());
  }

  cancel(paint: () => void): void {
    this.#waiting.delete(paint);
    if (this.#waiting.size === 0) {
      this.#frame?.();
      this.#frame = null;
    }
  }

  #run(): void {
    this.#frame = null;
    let left = this.#perFrame;
    for (const paint of this.#waiting) {
      if (left-- === 0) break;
      this.#waiting.delete(paint);
      paint();
    }
    if (this.#waiting.size > 0) this.#frame = this.#timers.frame(() => this.#run());
  }
}
