import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32 } from "../crc32";
import { OrderBook } from "./order-book";

/**
 * A real checksum vector: the tXRPBTC P0 snapshot, the update and the `cs` value the official Go
 * client's tests feed its book (bitfinex-api-go tests/integration/v2/mock_ws_public_test.go).
 * Prices in exponent form (7e-7) and a short bid side (18 levels) — both common checksum mistakes.
 */
const XRPBTC_SNAPSHOT = [
  [0.0000011, 13, 271510.49],
  [0.00000109, 4, 500793.10790141],
  [0.00000108, 5, 776367.43],
  [0.00000107, 1, 23329.54842056],
  [0.00000106, 3, 116868.87735849],
  [0.00000105, 3, 205000],
  [0.00000103, 3, 227308.25386407],
  [0.00000102, 2, 105000],
  [0.00000101, 1, 2970],
  [0.000001, 2, 21000],
  [7e-7, 1, 10000],
  [6.6e-7, 1, 10000],
  [6e-7, 1, 100000],
  [4.9e-7, 1, 10000],
  [2.5e-7, 1, 2000],
  [6e-8, 1, 100000],
  [5e-8, 1, 200000],
  [1e-8, 4, 640000],
  [0.00000111, 1, -4847.13],
  [0.00000112, 7, -528102.69042633],
  [0.00000113, 5, -302397.07],
  [0.00000114, 3, -339088.93],
  [0.00000126, 4, -245944.06],
  [0.00000127, 1, -5000],
  [0.0000013, 1, -5000],
  [0.00000134, 1, -8249.18938656],
  [0.00000136, 1, -13161.25184766],
  [0.00000145, 1, -2914],
  [0.0000015, 3, -54448.5],
  [0.00000152, 2, -5538.54849594],
  [0.00000153, 1, -62691.75475079],
  [0.00000159, 1, -2914],
  [0.0000016, 1, -52631.10296831],
  [0.00000164, 1, -4000],
  [0.00000166, 1, -3831.46784605],
  [0.00000171, 1, -14575.17730379],
  [0.00000174, 1, -3124.81815395],
  [0.0000018, 1, -18000],
  [0.00000182, 1, -16000],
  [0.00000186, 1, -4000],
  [0.00000189, 1, -10000.686624],
  [0.00000191, 1, -14500],
  [0.00000193, 1, -2422],
];

describe("crc32", () => {
  it("matches zlib, signed", () => {
    for (const s of ["", "a", "7254.7:3.3", "0.0000011:266122.94:0.00000111:-4847.13", "x".repeat(1000)]) {
      expect(crc32(s)).toBe(zlibCrc32(s) | 0);
    }
  });
});

describe("checksum", () => {
  it("reproduces the server's value for a real tXRPBTC book (exponent prices, short side)", () => {
    const book = new OrderBook({ kind: "price", len: 25 });
    book.applySnapshot(XRPBTC_SNAPSHOT);
    expect(book.bids.size).toBe(18);
    expect(book.asks.size).toBe(25);
    book.applyEntry([0.0000011, 12, 266122.94]);
    expect(book.checksum()).toBe(-1175357890);
  });

  it("uses the wire text of numbers, interleaves bid/ask and skips a missing side", () => {
    const book = new OrderBook({ kind: "price", len: 25 });
    book.applySnapshot([
      [100.5, 1, 2],
      [100, 2, 0.5],
      [101, 1, -1e-7],
    ]);
    expect(book.checksum()).toBe(crc32("100.5:2:101:-1e-7:100:0.5"));
  });

  it("takes only the top 25 per side, and ids for raw books", () => {
    const book = new OrderBook({ kind: "price", len: 100 });
    const snap: number[][] = [];
    for (let i = 0; i < 30; i++) snap.push([1000 - i, 1, 1 + i], [1001 + i, 1, -(1 + i)]);
    book.applySnapshot(snap);
    const tokens: string[] = [];
    for (let i = 0; i < 25; i++) tokens.push(`${1000 - i}:${1 + i}`, `${1001 + i}:${-(1 + i)}`);
    expect(book.checksum()).toBe(crc32(tokens.join(":")));

    const raw = new OrderBook({ kind: "raw", len: 25 });
    raw.applySnapshot([
      [34753002978, 7294.7, 1.54340371],
      [34753002979, 7294.7, 0.1],
      [34753006045, 7295, -2],
    ]);
    expect(raw.checksum()).toBe(crc32("34753002978:1.54340371:34753006045:-2:34753002979:0.1"));
  });

  it("recomputes after a change and is stable without one", () => {
    const book = new OrderBook({ kind: "price", len: 25 });
    book.applySnapshot(XRPBTC_SNAPSHOT);
    const before = book.checksum();
    expect(book.checksum()).toBe(before);
    book.applyEntry([0.0000011, 12, 266122.94]);
    expect(book.checksum()).toBe(-1175357890);
    book.applyEntry([0.0000011, 13, 271510.49]);
    expect(book.checksum()).toBe(before);
  });
});

describe("price book updates (docs/product-rules.md#book-updates)", () => {
  it("adds, replaces and removes levels, best first", () => {
    const book = new OrderBook({ kind: "price", len: 25 });
    book.applySnapshot([
      [7254.7, 3, 3.3],
      [7255, 1, -1],
    ]);
    book.applyEntry([7254.5, 1, 2]);
    book.applyEntry([7254.9, 2, 1]);
    book.applyEntry([7254.7, 4, 5]);
    expect(Array.from(book.bids.k1.subarray(0, book.bids.size))).toEqual([7254.9, 7254.7, 7254.5]);
    expect(book.bids.aux[1]).toBe(4);
    book.applyEntry([7254.5, 0, 1]);
    expect(book.bids.size).toBe(2);
    book.applyEntry([7255, 0, -1]);
    expect(book.asks.size).toBe(0);
    expect(book.unknownDeletes).toBe(0);
  });

  it("counts deletes of unknown levels", () => {
    const book = new OrderBook({ kind: "price", len: 25 });
    book.applySnapshot([[10, 1, 1]]);
    book.applyEntry([11, 0, 1]);
    book.applyEntry([12, 0, -1]);
    expect(book.unknownDeletes).toBe(2);
  });

  it("removes a price from the opposite side when it moves across", () => {
    const book = new OrderBook({ kind: "price", len: 25 });
    book.applySnapshot([
      [100, 1, 1],
      [101, 1, -1],
    ]);
    book.applyEntry([101, 2, 3]);
    expect(book.asks.size).toBe(0);
    expect(Array.from(book.bids.k1.subarray(0, 2))).toEqual([101, 100]);
  });

  it("replaces everything on a snapshot", () => {
    const book = new OrderBook({ kind: "price", len: 25 });
    book.applySnapshot([[100, 1, 1]]);
    book.applySnapshot([[200, 1, -1]]);
    expect(book.bids.size).toBe(0);
    expect(book.asks.k1[0]).toBe(200);
  });

  it("keeps a lone top-of-book entry and filters count ≤ 0 when the side holds more (len 1)", () => {
    const book = new OrderBook({ kind: "price", len: 1 });
    book.applySnapshot([[100, 1, 1]]);
    book.applyEntry([100, 0, 1]);
    expect(book.bids.size).toBe(1);
    // A new top arrives: the side holds two entries, so the empty one is filtered out.
    book.applyEntry([101, 2, 1]);
    expect(Array.from(book.bids.k1.subarray(0, book.bids.size))).toEqual([101]);
    // The lone ghost never counts in the checksum: an empty side for the exchange.
    book.applyEntry([101, 0, 1]);
    expect(book.bids.size).toBe(1);
    expect(book.checksum()).toBe(crc32(""));
  });

  it("grows past its capacity and refuses malformed entries without throwing", () => {
    const book = new OrderBook({ kind: "price", len: 25 });
    for (let i = 0; i < 1000; i++) book.applyEntry([i + 1, 1, 1]);
    expect(book.bids.size).toBe(1000);
    expect(book.bids.k1[0]).toBe(1000);
    for (const bad of [null, 5, "x", [], [1, 2], [1, "2", 3], { 0: 1 }]) expect(book.applyEntry(bad)).toBe(false);
    expect(book.applySnapshot("nope")).toBe(false);
    expect(book.malformed).toBe(8);
  });
});

describe("funding and raw books", () => {
  it("funding: negative amount is a bid, levels keyed by rate and period", () => {
    const book = new OrderBook({ kind: "funding", len: 25 });
    book.applySnapshot([
      [0.00023112, 30, 1, -15190.7005375],
      [0.00023112, 2, 1, -10],
      [0.0003, 2, 1, 66.35],
    ]);
    expect(book.bids.size).toBe(2);
    expect(book.asks.size).toBe(1);
    expect(Array.from(book.bids.k2.subarray(0, 2))).toEqual([2, 30]);
    book.applyEntry([0.00023112, 30, 0, -1]);
    expect(book.bids.size).toBe(1);
    expect(book.unknownDeletes).toBe(0);
  });

  it("raw: price 0 removes the order id; an order may move price or side", () => {
    const book = new OrderBook({ kind: "raw", len: 25 });
    book.applySnapshot([
      [1, 100, 1],
      [2, 100, 2],
      [3, 101, -1],
    ]);
    expect(Array.from(book.bids.k2.subarray(0, 2))).toEqual([1, 2]);
    book.applyEntry([2, 99, 2]);
    expect(Array.from(book.bids.k1.subarray(0, 2))).toEqual([100, 99]);
    book.applyEntry([1, 102, -1]);
    expect(book.bids.size).toBe(1);
    expect(book.asks.k1[0]).toBe(101);
    expect(book.asks.k1[1]).toBe(102);
    book.applyEntry([3, 0, -1]);
    book.applyEntry([42, 0, 1]);
    expect(book.asks.size).toBe(1);
    expect(book.unknownDeletes).toBe(1);
  });

  it("raw funding: rate 0 removes the offer", () => {
    const book = new OrderBook({ kind: "funding-raw", len: 25 });
    book.applySnapshot([[658282397, 30, 0.000233, -530]]);
    expect(book.bids.size).toBe(1);
    expect(book.bids.aux[0]).toBe(30);
    book.applyEntry([658282397, 30, 0, -530]);
    expect(book.bids.size).toBe(0);
    expect(book.unknownDeletes).toBe(0);
  });
});

describe("crc32 over bytes", () => {
  it("slicing-by-4 matches the byte-at-a-time CRC for every length and offset", async () => {
    const { crcUpdateBytes, crcFinish, CRC_INIT } = await import("../crc32");
    const text = "0.0000011:266122.94:0.00000111:-4847.13:7e-7:10000";
    const bytes = new Uint8Array([...text].map((c) => c.charCodeAt(0)));
    for (let start = 0; start < 8; start++) {
      for (let len = 0; start + len <= bytes.length; len++) {
        expect(crcFinish(crcUpdateBytes(CRC_INIT, bytes, start, len))).toBe(crc32(text.slice(start, start + len)));
      }
    }
  });
});

describe("crc32 over text ranges", () => {
  it("slicing-by-4 over a string range matches the CRC of the slice for every length and offset", async () => {
    const { crcUpdateText, crcFinish, CRC_INIT } = await import("../crc32");
    const text = "[17082,[7254.5,3,-0.00047262]]:0.0000011:266122.94:7e-7";
    for (let start = 0; start < 8; start++) {
      for (let end = start; end <= text.length; end++) {
        expect(crcFinish(crcUpdateText(CRC_INIT, text, start, end))).toBe(crc32(text.slice(start, end)));
      }
    }
  });
});

describe("grouped funding book", () => {
  it("aggregates levels by rate with summed count and amount and the period range", async () => {
    const { groupFundingByRate } = await import("./funding-groups");
    const book = new OrderBook({ kind: "funding", len: 100 });
    book.applySnapshot([
      [0.0002, 2, 1, -100],
      [0.0002, 30, 2, -50],
      [0.00019, 7, 1, -10],
      [0.0003, 2, 3, 200],
      [0.0003, 120, 1, 20],
      [0.00031, 2, 1, 5],
    ]);
    expect(Array.from(groupFundingByRate(book.bids))).toEqual([0.0002, 3, -150, 2, 30, 0.00019, 1, -10, 7, 7]);
    expect(Array.from(groupFundingByRate(book.asks))).toEqual([0.0003, 4, 220, 2, 120, 0.00031, 1, 5, 2, 2]);
    expect(Array.from(groupFundingByRate(book.asks, 1))).toEqual([0.0003, 4, 220, 2, 120]);
  });
});
