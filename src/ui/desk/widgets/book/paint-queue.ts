/**
 * Spreads the books' paints over animation frames. Every book's views come from the worker on the
 * same throttle clock, so 8 books on one desk get their views in the same few milliseconds; painted
 * on arrival (or all in the next frame) they made one long frame every throttle interval: every
 * visible row of every book laid out and painted at once (bench:ui: 20+ tasks over 50 ms in 3 s).
 * Here each frame paints at most `perFrame` books, the longest-waiting first, and stops early once
 * the frame's paints have taken `budgetMs`; a book whose newer view arrives while it waits is
 * painted once, with the newest view. Books drawn on canvases cost about a millisecond each, so all
 * 8 usually fit one frame (a cap of 2 made the last book wait 4 frames: bench:ui update-to-paint).
 */
import type { Cancel, Timers } from "../../../../protocol";

export class PaintQueue {
  readonly #timers: Pick<Timers, "frame" | "now">;
  readonly #perFrame: number;
  readonly #budgetMs: number;
  /** Insertion order is the waiting order. */
  readonly #waiting = new Set<() => void>();
  #frame: Cancel | null = null;

  constructor(timers: Pick<Timers, "frame" | "now">, perFrame: number, budgetMs = Number.POSITIVE_INFINITY) {
    this.#timers = timers;
    this.#perFrame = Math.max(1, Math.trunc(perFrame));
    this.#budgetMs = budgetMs;
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
    const start = this.#timers.now();
    for (const paint of this.#waiting) {
      if (left-- === 0) break;
      // At least one paint a frame, however slow, so every book makes progress.
      if (left < this.#perFrame - 1 && this.#timers.now() - start >= this.#budgetMs) break;
      this.#waiting.delete(paint);
      paint();
    }
    if (this.#waiting.size > 0) this.#frame = this.#timers.frame(() => this.#run());
  }
}
