import { describe, expect, it } from "vitest";
import { seededRandom } from "../src/protocol/random.ts";
import { compareRounds, levelFor, median, roundsFor, spread, verdictText } from "./ab-stats.ts";

/** Rounds of a shared machine: each round's speed drifts (load), both sides of a round alike. */
function rounds(n: number, seed: number, headFactor: number): { base: number[]; head: number[] } {
  const r = seededRandom(seed);
  const base: number[] = [];
  const head: number[] = [];
  for (let i = 0; i < n; i++) {
    const load = 400 * (1 + r() * 0.8); // one round 400 ns, the next 700: contention
    base.push(load * (1 + (r() - 0.5) * 0.06));
    head.push(load * headFactor * (1 + (r() - 0.5) * 0.06));
  }
  return { base, head };
}

describe("A/B statistics", () => {
  it("takes the median and spread of a figure's rounds", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(spread([5, 1, 3, 2, 4])).toMatchObject({ n: 5, median: 3, min: 1, max: 5, p25: 2, p75: 4 });
  });

  it("finds no change beyond noise between two runs of the same code, whatever the load", () => {
    let flagged = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const { base, head } = rounds(15, seed, 1);
      const c = compareRounds(base, head, { level: levelFor(5), seed });
      if (c.verdict !== "no change beyond noise") flagged++;
      expect(c.ci[0]).toBeLessThanOrEqual(c.ratio);
      expect(c.ci[1]).toBeGreaterThanOrEqual(c.ratio);
    }
    // A 99% interval: about 1 in 100 flagged by chance; 100 seeded runs, allow a few.
    expect(flagged).toBeLessThanOrEqual(4);
  }, 60_000);

  it("reports a 10% slowdown hidden in a load swing of 80%", () => {
    const { base, head } = rounds(15, 7, 1.1);
    const c = compareRounds(base, head, { level: levelFor(5) });
    expect(c.verdict).toBe("slower");
    expect(c.ratio).toBeGreaterThan(1.05);
    expect(c.ratio).toBeLessThan(1.15);
    expect(verdictText(c)).toMatch(/^slower: \+\d+\.\d% \(99% CI \+\d+\.\d% to \+\d+\.\d%\)$/);
  });

  it("reports a speed-up as faster", () => {
    const { base, head } = rounds(15, 9, 0.8);
    expect(compareRounds(base, head).verdict).toBe("faster");
  });

  it("pairs rounds: the same values in another order are not the same result", () => {
    const base = [100, 200, 300, 400, 500, 600, 700, 800];
    const head = base.map((x) => x * 1.2);
    expect(compareRounds(base, head).verdict).toBe("slower");
    // Unpaired, the same head values would overlap base's entirely.
    expect(compareRounds(base, [...head].reverse()).verdict).toBe("no change beyond noise");
  });

  it("treats 0 against 0 as the same (no long tasks on either side)", () => {
    const c = compareRounds([0, 0, 0, 0], [0, 0, 0, 0]);
    expect(c.ratio).toBe(1);
    expect(c.verdict).toBe("no change beyond noise");
  });

  it("is reproducible: the same rounds give the same interval", () => {
    const { base, head } = rounds(9, 3, 1.02);
    expect(compareRounds(base, head, { seed: 5 }).ci).toEqual(compareRounds(base, head, { seed: 5 }).ci);
  });

  it("widens each interval with the number of figures, and says how many rounds that needs", () => {
    expect(levelFor(1)).toBeCloseTo(0.95);
    expect(levelFor(5)).toBeCloseTo(0.99);
    expect(roundsFor(0.95)).toBe(6);
    expect(roundsFor(0.99)).toBe(8);
    expect(roundsFor(levelFor(24))).toBe(10);
  });
});
