import { describe, expect, it } from "vitest";
import type { Timers } from "../../protocol";
import { NO_FAULTS } from "../../protocol";
import { corruptFrame, FaultInjector, faultySocket, injectsFaults } from "./faults";
import type { SocketLike } from "./connection";

/** Timers whose `after` callbacks run when the test says. */
function manualTimers(): Timers & { run(): void } {
  const due: (() => void)[] = [];
  return {
    after: (_ms, fn) => {
      due.push(fn);
      return () => {};
    },
    every: () => () => {},
    frame: () => () => {},
    now: () => 0,
    run: () => due.splice(0).forEach((fn) => fn()),
  };
}

function through(settings: Partial<typeof NO_FAULTS>, frames: string[], timers = manualTimers()) {
  const f = new FaultInjector(timers);
  f.set({ ...NO_FAULTS, ...settings });
  const out: string[] = [];
  for (const t of frames) f.frame(t, (x) => out.push(x));
  return { f, out, timers };
}

const FRAMES = Array.from({ length: 200 }, (_, i) => `[7,[${100 + i},1,2]]`);

describe("fault injector", () => {
  it("passes every frame through untouched when no fault is set", () => {
    expect(injectsFaults(NO_FAULTS)).toBe(false);
    expect(through({}, FRAMES).out).toEqual(FRAMES);
  });

  it("drops, duplicates and corrupts about the chosen share of frames, the same way for a seed", () => {
    const a = through({ drop: 0.2, seed: 3 }, FRAMES);
    expect(a.f.stats.dropped).toBeGreaterThan(20);
    expect(a.f.stats.dropped).toBeLessThan(60);
    expect(a.out.length).toBe(FRAMES.length - a.f.stats.dropped);
    expect(through({ drop: 0.2, seed: 3 }, FRAMES).out).toEqual(a.out);
    expect(through({ drop: 0.2, seed: 4 }, FRAMES).out).not.toEqual(a.out);
    const d = through({ duplicate: 1 }, FRAMES.slice(0, 3));
    expect(d.out).toEqual([FRAMES[0], FRAMES[0], FRAMES[1], FRAMES[1], FRAMES[2], FRAMES[2]]);
    const c = through({ corrupt: 1 }, ["[7,[100,1,2]]", '{"event":"info"}', '[7,"hb"]']);
    expect(c.out).toEqual(["[7,[100,1,3]]", '{"event":"info"}', '[7,"hb"]']);
  });

  it("reorders a frame behind the next one, and delays frames until their time", () => {
    const r = through({ reorder: 1 }, ["a", "b", "c", "d"]);
    // "a" is held and goes out after "b"; then "c" is held and goes after "d".
    expect(r.out).toEqual(["b", "a", "d", "c"]);
    const timers = manualTimers();
    const l = through({ delay: 1, delayMs: 100 }, ["a", "b"], timers);
    expect(l.out).toEqual([]);
    timers.run();
    expect(l.out).toEqual(["a", "b"]);
  });

  it("loses subscribed replies only, and freezes everything", () => {
    const sub = '{"event":"subscribed","channel":"book","chanId":7}';
    const l = through({ loseSubscribed: 1 }, [sub, "[7,[1,1,1]]"]);
    expect(l.out).toEqual(["[7,[1,1,1]]"]);
    expect(l.f.stats.lostSubscribed).toBe(1);
    const z = through({ freeze: true }, [sub, "[7,[1,1,1]]"]);
    expect(z.out).toEqual([]);
    expect(z.f.stats.frozen).toBe(2);
  });

  it("changes the last digit of a data frame", () => {
    expect(corruptFrame("[7,[100,1,2.5]]")).toBe("[7,[100,1,2.6]]");
    expect(corruptFrame("[7,[100,1,19]]")).toBe("[7,[100,1,18]]");
    expect(corruptFrame('[7,"hb"]')).toBe('[7,"hb"]');
  });

  it("wraps a socket: incoming frames go through the faults, outgoing ones and events do not", () => {
    const sent: string[] = [];
    const raw: SocketLike = {
      readyState: 1,
      send: (d) => sent.push(d),
      close: () => {},
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
    };
    const f = new FaultInjector(manualTimers());
    f.set({ ...NO_FAULTS, drop: 1 });
    const s = faultySocket(raw, f);
    const got: unknown[] = [];
    s.onmessage = (ev) => got.push(ev.data);
    raw.onmessage?.({ data: "[7,[1,1,1]]" });
    expect(got).toEqual([]);
    f.set(null);
    raw.onmessage?.({ data: "[7,[1,1,1]]" });
    expect(got).toEqual(["[7,[1,1,1]]"]);
    s.send("x");
    expect(sent).toEqual(["x"]);
  });
});
