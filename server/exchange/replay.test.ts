/**
 * Replay and stress modes of the embedded exchange. The replay reads the real marfusios recording
 * from ../shared (skipping, with the reason, where it is absent) and must leave the exchange's book
 * equal to the recorded book after every applied change; stress bursts must produce one book change
 * per requested update.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dbPathFrom, limitsFromEnv, modesFromEnv } from "../exchange-host.ts";
import { Exchange } from "./exchange.ts";
import { readRecordingText, sharedBitfinexDir } from "./recordings.ts";
import { BookReplay, bookSteps, type BookEntry, type ReplayStep } from "./replay.ts";

const shared = sharedBitfinexDir();
const file = shared ? join(shared, "recordings", "marfusios__bitfinex_raw_2018-11-12.txt.gz") : null;
const present = file !== null && existsSync(file);

/** The recorded book after `n` steps, as the reference the exchange must match. */
function reference(steps: readonly ReplayStep[], n: number): Map<string, [number, number]> {
  const book = new Map<string, [number, number]>();
  const apply = ([price, count, amount]: BookEntry): void => {
    const key = `${amount > 0 ? "b" : "a"}${price}`;
    if (count === 0) book.delete(key);
    else book.set(key, [count, amount]);
  };
  for (let i = 0; i < n; i++) {
    const s = steps[i % steps.length] as ReplayStep;
    if ("kind" in s) {
      book.clear();
      s.levels.forEach(apply);
    } else apply(s);
  }
  return book;
}

function exchangeBook(ex: Exchange): Map<string, [number, number]> {
  const feed = ex.bookFeed("tBTCUSD", "P0", 250);
  const out = new Map<string, [number, number]>();
  for (const [price, count, amount] of feed?.snapshot() ?? [])
    out.set(`${(amount as number) > 0 ? "b" : "a"}${price}`, [count as number, amount as number]);
  return out;
}

// Skipped, with the reason in its name, where ../shared is not beside the checkout.
describe.skipIf(!present)("replay mode (reads ../shared/bitfinex/recordings; skipped when absent)", () => {
  const { symbol, steps } = bookSteps(readRecordingText(file as string));

  it("reads the recorded P0 book as a snapshot followed by level changes", () => {
    expect(symbol).toBe("tBTCUSD");
    const first = steps[0] as ReplayStep;
    expect("kind" in first && first.levels.length).toBeGreaterThan(150);
    expect(steps.length).toBeGreaterThan(5000);
  });

  it("keeps the exchange's book equal to the recorded book, level by level, as it advances", () => {
    const ex = new Exchange({ now: () => 1_700_000_000_000, seed: 9, markets: [{ symbol: "tBTCUSD", start: 6400 }] });
    const replay = new BookReplay(ex, symbol, steps);
    let applied = 0;
    for (const chunk of [1, 10, 200, 2000]) {
      replay.advance(chunk);
      applied += chunk;
      const want = reference(steps, applied);
      const got = exchangeBook(ex);
      expect(got.size).toBe(want.size);
      for (const [key, [count, amount]] of want) {
        const level = got.get(key);
        expect(level?.[0], key).toBe(count);
        expect(level?.[1] ?? 0).toBeCloseTo(amount, 7);
      }
    }
  });
});

describe("stress mode", () => {
  it("makes one book change per requested update", () => {
    const ex = new Exchange({ now: () => 1_700_000_000_000, seed: 4, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
    let batches = 0;
    ex.onBatch(() => batches++);
    ex.simulator.burst("tBTCUSD", 8);
    expect(batches).toBe(8);
    ex.simulator.pause("tBTCUSD");
    batches = 0;
    ex.simulator.burst("tBTCUSD", 8);
    ex.simulator.step();
    expect(batches).toBe(0);
  });

  it("reads STRESS and REPLAY from the environment and refuses values that do not parse", () => {
    expect(modesFromEnv({ STRESS: "60/8" })).toEqual({
      stress: { intervalMs: 60, updates: 8, symbols: ["tBTCUSD"] },
    });
    expect(modesFromEnv({ STRESS: "250ms:2", STRESS_SYMBOLS: "tETHUSD, tBTCUSD" }).stress?.symbols).toEqual([
      "tETHUSD",
      "tBTCUSD",
    ]);
    expect(() => modesFromEnv({ STRESS: "fast" })).toThrow(/STRESS/);
    expect(modesFromEnv({ REPLAY: "x.txt", REPLAY_SYMBOL: "tBTCUSD" }).replay).toEqual({
      path: "x.txt",
      stepMs: 100,
      steps: 5,
      symbol: "tBTCUSD",
    });
    expect(() => modesFromEnv({ REPLAY: "x.txt", REPLAY_STEPS: "0" })).toThrow(/REPLAY/);
    expect(limitsFromEnv({})).toEqual({});
    expect(limitsFromEnv({ RATE_LIMITS: "login=60, public=300" }).limits).toEqual({ public: 300, auth: 90, login: 60 });
    expect(() => limitsFromEnv({ RATE_LIMITS: "login=lots" })).toThrow(/RATE_LIMITS/);
    expect(() => limitsFromEnv({ RATE_LIMITS: "admin=5" })).toThrow(/RATE_LIMITS/);
    // SQLite's in-memory database is not a file named ":memory:" in the working directory.
    expect(dbPathFrom(":memory:")).toBe(":memory:");
    expect(dbPathFrom(undefined)).toMatch(/server\/data\/exchange\.db$/);
  });
});
