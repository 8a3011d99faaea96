/**
 * Differential test: the typed-array book with its cached checksum text against a naive Map book
 * that recomputes everything from scratch, over long seeded random streams of updates.
 */
import { describe, expect, it } from "vitest";
import { crc32 } from "../crc32";
import { seededRandom } from "../random";
import { newScannedUpdate, scanBookUpdate } from "../scan";
import { OrderBook } from "./order-book";

function naiveChecksum(bids: Map<number, number>, asks: Map<number, number>): number {
  const b = [...bids].sort((x, y) => y[0] - x[0]).slice(0, 25);
  const a = [...asks].sort((x, y) => x[0] - y[0]).slice(0, 25);
  const t: string[] = [];
  for (let i = 0; i < 25; i++) {
    const bi = b[i];
    const ai = a[i];
    if (bi) t.push(String(bi[0]), String(bi[1]));
    if (ai) t.push(String(ai[0]), String(ai[1]));
  }
  return crc32(t.join(":"));
}

describe("order book against a naive model", () => {
  it.each([
    [1, false, 60],
    [2, false, 60],
    [3, true, 60],
    [42, true, 60],
    [1234, true, 60],
    // ~25 levels a side: the short-side paths (linear search, shifts in one loop).
    [7, true, 2.5],
    [8, false, 2.5],
  ])("agrees on every level and checksum (seed %i, scanned frames %s, spread %d)", (seed, scanned, spread) => {
    const r = seededRandom(seed);
    const book = new OrderBook({ kind: "price", len: 250 });
    const scan = newScannedUpdate();
    const apply = (entry: number[]): void => {
      if (!scanned) {
        book.applyEntry(entry);
        return;
      }
      const text = `[5,[${entry.join(",")}]]`;
      // Like the feed: the scanner may decline (17-digit amounts), then the parsed path applies.
      if (scanBookUpdate(text, scan)) book.applyScanned(scan, text);
      else book.applyEntry(entry);
    };
    const bids = new Map<number, number>();
    const asks = new Map<number, number>();
    const mid = 1000;
    for (let step = 0; step < 20_000; step++) {
      const bid = r() < 0.5;
      // Prices on a 0.1 grid near the middle, with exponent-form tiny amounts now and then.
      const price = Math.round((bid ? mid - r() * spread : mid + r() * spread) * 10) / 10;
      const del = r() < 0.35;
      const amountAbs = r() < 0.05 ? 1e-7 * Math.ceil(r() * 9) : Math.round(r() * 1e6) / 1e4 + 0.0001;
      if (del) {
        const side = bid ? bids : asks;
        if (!side.has(price)) continue;
        side.delete(price);
        apply([price, 0, bid ? 1 : -1]);
      } else {
        const amount = bid ? amountAbs : -amountAbs;
        (bid ? bids : asks).set(price, amount);
        (bid ? asks : bids).delete(price);
        apply([price, 1 + Math.floor(r() * 5), amount]);
      }
      if (step % 7 === 0) expect(book.checksum()).toBe(naiveChecksum(bids, asks));
    }
    expect(book.unknownDeletes).toBe(0);
    expect(book.bids.size).toBe(bids.size);
    expect(book.asks.size).toBe(asks.size);
    const sortedBids = [...bids.keys()].sort((x, y) => y - x);
    expect(Array.from(book.bids.k1.subarray(0, book.bids.size))).toEqual(sortedBids);
  });

  it.each([5, 6])("agrees on a raw book's orders and checksum (seed %i)", (seed) => {
    // Raw books key levels by (price, order id): the k2 column moves with every insert and removal.
    const r = seededRandom(seed);
    const book = new OrderBook({ kind: "raw", len: 250 });
    const orders = new Map<number, [number, number]>();
    const tokens = (bid: boolean): [number, number, number][] =>
      [...orders]
        .filter(([, [, a]]) => a > 0 === bid)
        .map(([id, [p, a]]): [number, number, number] => [p, id, a])
        .sort((x, y) => (bid ? y[0] - x[0] : x[0] - y[0]) || x[1] - y[1]);
    for (let step = 0; step < 8000; step++) {
      const id = 1 + Math.floor(r() * 400);
      if (r() < 0.3 && orders.has(id)) {
        orders.delete(id);
        book.applyRaw(id, 0, 1);
      } else {
        const bid = r() < 0.5;
        const price = Math.round((bid ? 1000 - r() * 30 : 1000.5 + r() * 30) * 2) / 2;
        const amount = (bid ? 1 : -1) * (Math.round(r() * 1e4) / 1e3 + 0.001);
        orders.set(id, [price, amount]);
        book.applyRaw(id, price, amount);
      }
      if (step % 5 === 0) {
        const b = tokens(true);
        const a = tokens(false);
        const t: string[] = [];
        for (let i = 0; i < 25; i++) {
          const bi = b[i];
          const ai = a[i];
          if (bi) t.push(String(bi[1]), String(bi[2]));
          if (ai) t.push(String(ai[1]), String(ai[2]));
        }
        expect(book.checksum()).toBe(crc32(t.join(":")));
        expect(Array.from(book.bids.k2.subarray(0, book.bids.size))).toEqual(b.map((x) => x[1]));
        expect(Array.from(book.asks.k2.subarray(0, book.asks.size))).toEqual(a.map((x) => x[1]));
      }
    }
    expect(book.unknownDeletes).toBe(0);
  });

  it("never throws on fuzzed and truncated entries", () => {
    const r = seededRandom(7);
    const book = new OrderBook({ kind: "price", len: 25 });
    const junk: unknown[] = [
      null,
      undefined,
      "1",
      {},
      [],
      [1],
      [1, 2],
      [Number.NaN, 1, 1],
      [1, Infinity, -1],
      ["a", 1, 1],
    ];
    for (let i = 0; i < 5000; i++) {
      const pick = junk[Math.floor(r() * junk.length)];
      expect(() => book.applyEntry(pick)).not.toThrow();
      expect(() => book.applySnapshot(r() < 0.5 ? [pick, pick] : pick)).not.toThrow();
    }
    expect(() => book.checksum()).not.toThrow();
  });
});

describe("non-finite numbers", () => {
  it("are refused so they cannot break the sort order", () => {
    const book = new OrderBook({ kind: "price", len: 25 });
    expect(book.applyEntry([Number.NaN, 1, 1])).toBe(false);
    expect(book.applyEntry([1, Number.POSITIVE_INFINITY, -1])).toBe(false);
    expect(book.bids.size + book.asks.size).toBe(0);
  });
});

describe("snapshot from text", () => {
  it("builds the same book and checksum as the parsed path, and declines odd text", async () => {
    const { newScannedUpdate: newScan } = await import("../scan");
    const r = seededRandom(77);
    for (let round = 0; round < 50; round++) {
      const entries: number[][] = [];
      const n = Math.floor(r() * 120);
      for (let i = 0; i < n; i++)
        entries.push([
          Math.round((1000 - i - r()) * 100) / 100,
          1 + Math.floor(r() * 4),
          Math.round(r() * 1e6) / 1e4 + 0.0001,
        ]);
      for (let i = 0; i < n; i++)
        entries.push([
          Math.round((1001 + i + r()) * 100) / 100,
          1 + Math.floor(r() * 4),
          -(Math.round(r() * 1e6) / 1e4 + 0.0001),
        ]);
      const text = `[9,${JSON.stringify(entries)}]`;
      const a = new OrderBook({ kind: "price", len: 250 });
      const b = new OrderBook({ kind: "price", len: 250 });
      a.applySnapshot(entries);
      const end = b.applySnapshotText(text, 3, newScan());
      if (end < 0) continue; // a 17-digit amount: the feed would use the parsed path
      expect(end).toBe(text.length - 1);
      expect(b.checksum()).toBe(a.checksum());
      expect(Array.from(b.asks.k1.subarray(0, b.asks.size))).toEqual(Array.from(a.asks.k1.subarray(0, a.asks.size)));
    }
    const c = new OrderBook({ kind: "price", len: 25 });
    expect(c.applySnapshotText("[9,[[1,2]]]", 3, newScan())).toBe(-1);
    expect(c.bids.size).toBe(0);
    expect(c.applySnapshotText("[9,[]]", 3, newScan())).toBe(5);
  });
});
