/**
 * Replay and stress modes of the embedded exchange. The replay reads the real marfusios recording
 * from ../shared (skipping, with the reason, where it is absent) and must leave the exchange's book
 * equal to the recorded book after every applied change, and print the recorded trades — in
 * recorded order, at their recorded prices and amounts — on the tape, the trades channel, REST and
 * the ticker without moving an account's balance; stress bursts must produce one book change per
 * requested update.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { dbPathFrom, limitsFromEnv, modesFromEnv } from "../exchange-host.ts";
import { Exchange } from "./exchange.ts";
import { parseRecording, readRecordingText, sharedBitfinexDir } from "./recordings.ts";
import { BookReplay, bookSteps, REPLAY_OWNER, type BookEntry, type ReplayStep, type ReplayTrade } from "./replay.ts";
import { listenApi } from "../test-support/api.ts";
import { testVenue } from "../test-support/venue.ts";
import { messageText } from "../ws-text.ts";

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
  // A P-book's rows: [PRICE, COUNT, AMOUNT].
  for (const row of feed?.snapshot() ?? []) {
    const [price, count, amount] = row as [number, number, number];
    out.set(`${amount > 0 ? "b" : "a"}${price}`, [count, amount]);
  }
  return out;
}

/** Every trade row the recording carries (all of its trades channels are tBTCUSD's), by recorded id. */
function recordedTradeRows(text: string): Map<number, number[]> {
  const rows = new Map<number, number[]>();
  const isRow = (r: unknown): r is number[] =>
    Array.isArray(r) && r.length === 4 && r.every((x) => typeof x === "number");
  for (const item of parseRecording(text).items) {
    if (item.kind !== "frame" || !item.text.startsWith("[")) continue;
    const f = JSON.parse(item.text) as unknown[];
    if ((f[1] === "te" || f[1] === "tu") && isRow(f[2])) rows.set(f[2][0] as number, f[2]);
    // Book lists carry three numbers a row: a list of four-number rows is a trades snapshot.
    else if (Array.isArray(f[1]) && f[1].length > 0 && f[1].every(isRow))
      for (const r of f[1]) rows.set(r[0] as number, r);
  }
  return rows;
}

/** The wallets as [type, currency, balance] (the rest of a row is derived from these). */
function balances(rows: unknown[][]): unknown[][] {
  return rows.map((r) => r.slice(0, 3));
}

/** The recorded trades the replay has printed once `applied` book steps are applied (first pass). */
function printedBy(trades: readonly ReplayTrade[], applied: number): ReplayTrade[] {
  return trades.filter((t) => t.at < applied);
}

// Skipped, with the reason in its name, where ../shared is not beside the checkout.
describe.skipIf(!present)("replay mode (reads ../shared/bitfinex/recordings; skipped when absent)", () => {
  const text = present ? readRecordingText(file) : "";
  const { symbol, steps, trades } = bookSteps(text);

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

  it("reads every recorded tBTCUSD trade once, oldest first, placed between the book steps", () => {
    const rows = recordedTradeRows(text);
    // Both connections' snapshots and `te` updates, a reconnection's repeats counted once.
    expect(trades.length).toBe(rows.size);
    expect(trades.length).toBeGreaterThan(4000);
    const byId = [...rows.values()].sort((a, b) => (a[0] as number) - (b[0] as number));
    // MTS left out: a reconnection's snapshot restates some by a few ms, and a print takes the clock's.
    expect(trades.map((t) => [t.id, t.amount, t.price])).toEqual(
      byId.map(([id, , amount, price]) => [id, amount, price]),
    );
    // The first connection's snapshot comes before its book; its `te` updates fall among the steps.
    expect(trades[0]?.at).toBe(0);
    for (let i = 1; i < trades.length; i++)
      expect((trades[i] as ReplayTrade).at).toBeGreaterThanOrEqual((trades[i - 1] as ReplayTrade).at);
    expect(trades.filter((t) => t.at > 0 && t.at < 5000).length).toBeGreaterThan(5);
    expect((trades[trades.length - 1] as ReplayTrade).at).toBeLessThanOrEqual(steps.length);
  });

  it("prints the recorded trades on the market as it advances: tape, ticker, candles; book and balances untouched", () => {
    const v = testVenue("replay@example.com", "replayer");
    v.balances.credit(v.user, "USD", 100_000, "Deposit");
    v.balances.credit(v.user, "BTC", 1, "Deposit");
    const wallets = balances(v.balances.walletsWire(v.user));
    const ex = v.exchange;
    const replay = new BookReplay(ex, symbol, steps, trades);
    const market = ex.markets.get(symbol);
    const printed: [number, number][] = [];
    ex.onBatch((b) => {
      if (b.result.order.owner !== REPLAY_OWNER || b.trades.length === 0) return;
      // A print moves no book level.
      expect(b.result.levels).toEqual([]);
      for (const t of b.trades) printed.push([t.amount, t.price]);
    });
    v.events.length = 0;
    let applied = 0;
    for (const chunk of [1, 10, 600, 2000, 20_000]) {
      replay.advance(chunk);
      applied += chunk;
      const want = printedBy(trades, applied);
      expect(printed).toEqual(want.map((t) => [t.amount, t.price]));
      // The tape (what REST's trades history serves) is newest first, with the market's own ids.
      const tape = (market?.trades ?? []).slice(0, want.length);
      expect(tape.map((t) => [t.amount, t.price])).toEqual(want.map((t) => [t.amount, t.price]).reverse());
      expect(new Set(tape.map((t) => t.id)).size).toBe(tape.length);
      const last = want[want.length - 1] as ReplayTrade;
      expect(market?.ticker(v.tick(0))[6]).toBe(last.price);
      expect(market?.candles.get("1m")?.at(-1)?.[2]).toBe(last.price);
      // The book is still the recorded book: the prints consumed nothing.
      const ref = reference(steps, applied);
      const got = exchangeBook(ex);
      expect(got.size).toBe(ref.size);
      for (const [key, [count, amount]] of ref) {
        expect(got.get(key)?.[0], key).toBe(count);
        expect(got.get(key)?.[1] ?? 0).toBeCloseTo(amount, 7);
      }
    }
    expect(printed.length).toBeGreaterThan(40);
    // Not an account's fill: no event, no balance moved.
    expect(v.events).toEqual([]);
    expect(balances(v.balances.walletsWire(v.user))).toEqual(wallets);
    // An account's order still matches against the replayed book, at the recorded best ask.
    const bestAsk = ex.markets.get(symbol)?.engine.bestAsk() as number;
    const placed = v.orders.place(v.user, { type: "EXCHANGE MARKET", symbol, amount: "0.001" });
    expect(placed.ok).toBe(true);
    expect(v.orders.tradesWire(v.user, symbol, 10)[0]?.[5]).toBe(bestAsk);
    expect(balances(v.balances.walletsWire(v.user))).not.toEqual(wallets);
  }, 30_000); // 22,000 recorded steps checked against a reference replay: seconds of CPU on a shared machine

  it("serves the printed trades on the trades channel, REST trades history and the ticker", async () => {
    const ex = new Exchange({ now: () => Date.now(), seed: 9, markets: [{ symbol: "tBTCUSD", start: 6400 }] });
    const replay = new BookReplay(ex, symbol, steps, trades);
    const { api, host } = await listenApi({ exchange: ex });
    try {
      const ws = new WebSocket(`ws://${host}/ws/2`);
      const frames: unknown[][] = [];
      ws.on("message", (d) => {
        const f = JSON.parse(messageText(d)) as unknown;
        if (Array.isArray(f)) frames.push(f);
        else if ((f as Record<string, unknown>)["event"] === "subscribed") frames.push([f]);
      });
      await new Promise((r) => ws.once("open", r));
      ws.send(JSON.stringify({ event: "subscribe", channel: "trades", symbol }));
      const until = async (ok: () => boolean): Promise<void> => {
        for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
      };
      await until(() => frames.length >= 2);
      const chanId = (frames[0]?.[0] as Record<string, unknown>)["chanId"];
      const applied = 2000;
      replay.advance(applied);
      const want = printedBy(trades, applied).map((t) => [t.amount, t.price]);
      const te = (): unknown[][] =>
        frames.filter((f) => f[0] === chanId && f[1] === "te").map((f) => f[2] as unknown[]);
      await until(() => te().length >= want.length);
      ws.close();
      expect(te().map((r) => [r[2], r[3]])).toEqual(want);
      const base = `http://${host}`;
      const hist = (await (await fetch(`${base}/v2/trades/${symbol}/hist?limit=${want.length}`)).json()) as number[][];
      expect(hist.map((r) => [r[2], r[3]])).toEqual([...want].reverse());
      // The channel and REST name a trade by the same (market's own) id.
      expect(hist.map((r) => r[0])).toEqual(
        te()
          .map((r) => r[0])
          .reverse(),
      );
      const ticker = (await (await fetch(`${base}/v2/ticker/${symbol}`)).json()) as number[];
      expect(ticker[6]).toBe(want[want.length - 1]?.[1]);
    } finally {
      await api.close();
    }
  });
});

describe("replay of a recording's trades", () => {
  // Two connections, marfusios style: the trades snapshot (newest first) before the book, `te`
  // updates (and their `tu` repeats) between the book's, a reconnection's snapshot repeating two
  // trades, another symbol's trades, and a trade behind the last book step.
  const frames = [
    { event: "info", version: 2 },
    { event: "subscribed", channel: "trades", chanId: 7, symbol: "tBTCUSD" },
    { event: "subscribed", channel: "trades", chanId: 11, symbol: "tETHUSD" },
    [
      7,
      [
        [3, 1000, -0.5, 101],
        [2, 999, 0.25, 100],
      ],
    ],
    { event: "subscribed", channel: "book", chanId: 8, symbol: "tBTCUSD", prec: "P0" },
    [
      8,
      [
        [100, 1, 1],
        [102, 1, -1],
      ],
    ],
    [11, "te", [99, 1001, 1, 3000]],
    [7, "te", [4, 1001, 0.1, 102]],
    [7, "tu", [4, 1001, 0.1, 102, 0.0002, "USD"]],
    [8, [101, 1, -0.5]],
    [7, "te", [5, 1002, -0.2, 100]],
    { event: "info", version: 2 },
    { event: "subscribed", channel: "trades", chanId: 9, symbol: "tBTCUSD" },
    [
      9,
      [
        [6, 1003, 0.3, 101],
        [5, 1002, -0.2, 100],
        [4, 1001, 0.1, 102],
      ],
    ],
    { event: "subscribed", channel: "book", chanId: 10, symbol: "tBTCUSD", prec: "P0" },
    [
      10,
      [
        [100, 2, 2],
        [103, 1, -1],
      ],
    ],
    [9, "hb"],
    [9, "te", [7, 1004, 0.4, 103]],
  ];
  const text = frames.map((f) => JSON.stringify(f)).join(";;");

  it("places each trade of the book's symbol once, oldest first, by the book steps before it", () => {
    const r = bookSteps(text);
    expect(r.symbol).toBe("tBTCUSD");
    expect(r.steps.length).toBe(3);
    expect(r.trades.map((t) => [t.id, t.at, t.amount, t.price])).toEqual([
      [2, 0, 0.25, 100],
      [3, 0, -0.5, 101],
      [4, 1, 0.1, 102],
      [5, 2, -0.2, 100],
      [6, 2, 0.3, 101],
      [7, 3, 0.4, 103],
    ]);
  });

  it("prints them before their book step, the last behind the recording's end, and again from the start", () => {
    let now = 1_700_000_000_000;
    const ex = new Exchange({ now: () => now, seed: 5, markets: [{ symbol: "tBTCUSD", start: 100 }] });
    const { symbol, steps, trades } = bookSteps(text);
    const replay = new BookReplay(ex, symbol, steps, trades);
    const market = ex.markets.get(symbol);
    const volume0 = market?.ticker(now)[7] as number;
    const printed: number[][] = [];
    ex.onBatch((b) => b.trades.forEach((t) => printed.push([t.amount, t.price])));
    replay.advance(1);
    expect(printed).toEqual([
      [0.25, 100],
      [-0.5, 101],
    ]);
    // The book is the snapshot: the trades at 101 and 100 took nothing from it.
    expect(market?.engine.bestBid()).toBe(100);
    expect(market?.engine.bestAsk()).toBe(102);
    now += 1000;
    replay.advance(2);
    expect(printed.slice(2)).toEqual([
      [0.1, 102],
      [-0.2, 100],
      [0.3, 101],
    ]);
    replay.advance(1);
    expect(printed.slice(5)).toEqual([
      [0.4, 103],
      [0.25, 100],
      [-0.5, 101],
    ]);
    // Ticker and candles take the prints as they take a match's fills.
    const ticker = market?.ticker(now) as number[];
    expect(ticker[6]).toBe(101);
    expect(ticker[7]).toBeCloseTo(volume0 + 0.25 + 0.5 + 0.1 + 0.2 + 0.3 + 0.4 + 0.25 + 0.5, 8);
    expect(ticker[8]).toBeGreaterThanOrEqual(103);
    expect(ticker[9]).toBeLessThanOrEqual(100);
    const candle = market?.candles.get("1m")?.at(-1) as number[];
    expect(candle.slice(1)).toEqual([100, 101, 103, 100, 2.5]);
    expect(market?.engine.bestBid()).toBe(100);
    expect(market?.engine.bestAsk()).toBe(102);
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
