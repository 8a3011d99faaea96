import { describe, expect, it } from "vitest";
import { PaintQueue } from "./paint-queue";

/** Frames run only when the test says so. */
function manualFrames() {
  let pending: ((now: number) => void)[] = [];
  const clock = { t: 0 };
  return {
    clock,
    timers: {
      now: () => clock.t,
      frame(fn: (now: number) => void) {
        pending.push(fn);
        return () => {
          pending = pending.filter((f) => f !== fn);
        };
      },
    },
    pending: () => pending.length,
    run() {
      const now = pending;
      pending = [];
      for (const fn of now) fn(0);
    },
  };
}

describe("PaintQueue", () => {
  it("paints at most perFrame requests a frame, the longest-waiting first, each once", () => {
    const frames = manualFrames();
    const q = new PaintQueue(frames.timers, 2);
    const done: string[] = [];
    const paint = (name: string) => () => done.push(name);
    const a = paint("a");
    const b = paint("b");
    const c = paint("c");
    q.request(a);
    q.request(b);
    q.request(c);
    q.request(a); // already waiting: keeps its place, runs once
    expect(frames.pending()).toBe(1);
    frames.run();
    expect(done).toEqual(["a", "b"]);
    expect(q.size).toBe(1);
    q.request(a);
    frames.run();
    expect(done).toEqual(["a", "b", "c", "a"]);
    expect(q.size).toBe(0);
    expect(frames.pending()).toBe(0);
  });

  it("drops a cancelled paint and its frame", () => {
    const frames = manualFrames();
    const q = new PaintQueue(frames.timers, 1);
    let runs = 0;
    const p = () => runs++;
    q.request(p);
    q.cancel(p);
    expect(frames.pending()).toBe(0);
    frames.run();
    expect(runs).toBe(0);
  });

  it("stops a frame's paints once they have used the budget, but always paints one", () => {
    const frames = manualFrames();
    const q = new PaintQueue(frames.timers, 8, 6);
    const done: string[] = [];
    // Each paint takes 4 ms of the clock.
    const paint = (name: string) => () => {
      done.push(name);
      frames.clock.t += 4;
    };
    const [a, b, c, d] = ["a", "b", "c", "d"].map(paint) as [() => void, () => void, () => void, () => void];
    for (const p of [a, b, c, d]) q.request(p);
    frames.run();
    expect(done).toEqual(["a", "b"]);
    frames.run();
    expect(done).toEqual(["a", "b", "c", "d"]);
    const slow = () => {
      done.push("slow");
      frames.clock.t += 50;
    };
    q.request(slow);
    q.request(a);
    frames.run();
    expect(done.slice(4)).toEqual(["slow"]);
    frames.run();
    expect(done.slice(4)).toEqual(["slow", "a"]);
  });
});
