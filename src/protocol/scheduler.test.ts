import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { globalScheduler } from "../../tests/support/timers";

describe("Scheduler", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs and forgets one-shot timers, cancels on demand", () => {
    const s = globalScheduler();
    const a = vi.fn();
    const b = vi.fn();
    s.after(10, a);
    const cancel = s.after(10, b);
    expect(s.size).toBe(2);
    cancel();
    vi.advanceTimersByTime(10);
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).not.toHaveBeenCalled();
    expect(s.size).toBe(0);
  });

  it("disposes every timer of itself and its children, and schedules nothing afterwards", () => {
    const s = globalScheduler();
    const child = s.child();
    const tick = vi.fn();
    s.every(5, tick);
    child.every(5, tick);
    child.frame(tick);
    vi.advanceTimersByTime(5);
    expect(tick).toHaveBeenCalledTimes(2);
    s.dispose();
    vi.advanceTimersByTime(100);
    expect(tick).toHaveBeenCalledTimes(2);
    expect(s.size).toBe(0);
    expect(child.size).toBe(0);
    s.after(1, tick);
    child.after(1, tick);
    vi.advanceTimersByTime(5);
    expect(tick).toHaveBeenCalledTimes(2);
  });

  it("falls back to a 16 ms timer for frames where the host has none", () => {
    const s = globalScheduler();
    const f = vi.fn();
    s.frame(f);
    vi.advanceTimersByTime(15);
    expect(f).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(f).toHaveBeenCalledTimes(1);
  });
});
