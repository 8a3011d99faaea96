/**
 * Owned timers: every timer belongs to a Scheduler and dies with it, so a torn-down
 * component or core never leaves a callback behind. The host (window, a worker's global scope, Node,
 * or a test fake) is injected, which keeps this module free of any runtime's globals.
 */

export type Cancel = () => void;

/** What the cores ask for: timers and a clock, nothing else. */
export interface Timers {
  /** Runs `fn` once after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): Cancel;
  /** Runs `fn` every `ms`; the returned function cancels it. */
  every(ms: number, fn: () => void): Cancel;
  /** Runs `fn` on the next animation frame (or after 16 ms where there are no frames). */
  frame(fn: (now: number) => void): Cancel;
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The runtime's timer primitives, as window, WorkerGlobalScope and Node all provide them. */
export interface TimerHost {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: never): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: never): void;
  requestAnimationFrame?: ((fn: (now: number) => void) => number) | undefined;
  cancelAnimationFrame?: ((id: number) => void) | undefined;
  now(): number;
}

export class Scheduler implements Timers {
  readonly #host: TimerHost;
  readonly #live = new Set<Cancel>();
  #disposed = false;

  constructor(host: TimerHost) {
    this.#host = host;
  }

  #track(release: () => void): Cancel {
    const cancel = (): void => {
      if (!this.#live.delete(cancel)) return;
      release();
    };
    this.#live.add(cancel);
    return cancel;
  }

  after(ms: number, fn: () => void): Cancel {
    if (this.#disposed) return noop;
    const id = this.#host.setTimeout(() => {
      this.#live.delete(cancel);
      fn();
    }, ms);
    const cancel = this.#track(() => this.#host.clearTimeout(id as never));
    return cancel;
  }

  every(ms: number, fn: () => void): Cancel {
    if (this.#disposed) return noop;
    const id = this.#host.setInterval(fn, ms);
    return this.#track(() => this.#host.clearInterval(id as never));
  }

  frame(fn: (now: number) => void): Cancel {
    if (this.#disposed) return noop;
    const raf = this.#host.requestAnimationFrame;
    const caf = this.#host.cancelAnimationFrame;
    if (!raf || !caf) return this.after(16, () => fn(this.now()));
    const id = raf((t) => {
      this.#live.delete(cancel);
      fn(t);
    });
    const cancel = this.#track(() => caf(id));
    return cancel;
  }

  now(): number {
    return this.#host.now();
  }

  /** A child scheduler whose timers are also cancelled when this one is disposed. */
  child(): Scheduler {
    const child = new Scheduler(this.#host);
    if (this.#disposed) child.dispose();
    else this.#track(() => child.dispose());
    return child;
  }

  /** Cancels every live timer; later calls schedule nothing. */
  dispose(): void {
    this.#disposed = true;
    for (const cancel of [...this.#live]) cancel();
  }

  /** How many timers are live (for leak tests). */
  get size(): number {
    return this.#live.size;
  }
}

function noop(): void {}

/** Resolves after `ms` on the given timers (for retry back-off). */
export function sleep(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => {
    timers.after(ms, resolve);
  });
}
