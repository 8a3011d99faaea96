import { describe, expect, it } from "vitest";
import { createProgress, formatDuration } from "./progress.mjs";

function sink(tty: boolean): { lines: string[]; out: NodeJS.WritableStream & { isTTY?: boolean } } {
  const lines: string[] = [];
  return {
    lines,
    out: { isTTY: tty, write: (s: string) => lines.push(s) } as unknown as NodeJS.WritableStream & { isTTY?: boolean },
  };
}

describe("bench progress", () => {
  it("formats durations", () => {
    expect(formatDuration(45_000)).toBe("45 s");
    expect(formatDuration(80_000)).toBe("1 min 20 s");
    expect(formatDuration(120_000)).toBe("2 min");
    expect(formatDuration(Number.NaN)).toBe("?");
  });

  it("names the step and estimates the time left from the work done", () => {
    let now = 0;
    const { out } = sink(true);
    const p = createProgress("core", 100, { out, now: () => now, quiet: false });
    p.begin("updates-25 · round 1/7");
    expect(p.text()).toContain("estimating");
    now = 30_000;
    p.advance(25);
    p.begin("updates-25 · round 2/7");
    expect(p.text()).toBe("[core] updates-25 · round 2/7 · 25% · ~1 min 30 s left (30 s so far)");
  });

  it("rewrites one line on a terminal and prints at most every 10 s in a log", () => {
    let now = 0;
    const tty = sink(true);
    const p = createProgress("ui", 10, { out: tty.out, now: () => now, quiet: false });
    p.begin("a");
    p.advance(1);
    expect(tty.lines.every((l) => l.startsWith("\r"))).toBe(true);
    const log = sink(false);
    const q = createProgress("ui", 10, { out: log.out, now: () => now, quiet: false });
    q.begin("a");
    q.advance(1);
    q.advance(1);
    expect(log.lines).toHaveLength(1);
    now = 11_000;
    q.advance(1);
    q.end();
    expect(log.lines).toHaveLength(3);
    expect(log.lines.at(-1)).toBe("[ui] done in 11 s\n");
  });
});
