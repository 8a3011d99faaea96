/**
 * The funding desk's book on the wire: every funding book the embedded exchange sends (simulated
 * lenders and borrowers, P0–P4 and R0) keeps its checksum in the worker's core, and the views the
 * desk draws from it (grouped by rate with their period ranges, or single offers) agree with the
 * book they come from. Recorded funding book traffic, where ../shared has any, must replay with no
 * failed checksum; the recordings and fixtures beside this checkout hold none (they are trading
 * books), which the skipped case says.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { replayFile } from "../../bench/replay.ts";
import { Exchange } from "../../server/exchange/exchange.ts";
import { sharedBitfinexDir } from "../../server/exchange/recordings.ts";
import { listenApi } from "../../server/test-support/api.ts";
import { BOOK_VIEW_STRIDE, CONF_FLAGS } from "../../src/protocol/index.ts";
import { Connection, packBook, type SocketLike } from "../../src/workers/core/index.ts";
import { globalScheduler } from "../support/timers.ts";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The embedded exchange on a free port, its simulated lenders and borrowers stepping every 15 ms. */
async function runningExchange(): Promise<{ readonly host: string; stop(): Promise<void> }> {
  const exchange = new Exchange({ now: () => Date.now(), seed: 5, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
  const { api, host } = await listenApi({ exchange, heartbeatMs: 200 });
  const timer = setInterval(() => exchange.simulator.step(), 15);
  return {
    host,
    stop: async () => {
      clearInterval(timer);
      await api.close();
    },
  };
}

describe("funding books from the embedded exchange", () => {
  let running: Awaited<ReturnType<typeof runningExchange>> | null = null;
  beforeAll(async () => {
    running = await runningExchange();
  });
  afterAll(() => running?.stop());

  it("keep every checksum at every precision the desk offers, and pack into views that match the book", async () => {
    const t = globalScheduler();
    const conn = new Connection({
      url: `ws://${running?.host ?? ""}/ws/2`,
      createSocket: (u) => new WebSocket(u) as unknown as SocketLike,
      timers: t,
      flags: CONF_FLAGS.OB_CHECKSUM | CONF_FLAGS.SEQ_ALL,
      watchdogMs: 5000,
    });
    for (const prec of ["P0", "P1", "P2", "P3", "P4", "R0"])
      conn.core.subscribe({ channel: "book", symbol: "fUSD", prec, freq: "F0", len: "100" });
    conn.start();
    await wait(2500);
    const s = conn.core.stats;
    const books = [...conn.core.channels.values()].filter((c) => c.kind === "book" && c.book !== null);
    expect(s.books).toBe(6);
    expect(s.checksumsOk).toBeGreaterThan(12);
    expect(s.checksumsFailed).toBe(0);
    expect(s.unknownDeletes).toBe(0);
    expect(s.resyncs).toBe(0);

    for (const ch of books) {
      const book = ch.book;
      if (!book) continue;
      const packed = packBook(book, 100);
      const n = packed.bids + packed.asks;
      expect(packed.periods?.length, ch.sub.request.prec).toBe(2 * n);
      expect(n).toBeGreaterThan(0);
      const rate = (i: number) => packed.levels[i * BOOK_VIEW_STRIDE] as number;
      for (let i = 0; i < n; i++) {
        const shortest = packed.periods?.[2 * i] as number;
        const longest = packed.periods?.[2 * i + 1] as number;
        expect(shortest).toBeGreaterThanOrEqual(2);
        expect(longest).toBeLessThanOrEqual(120);
        expect(shortest).toBeLessThanOrEqual(longest);
      }
      if (book.kind === "funding") {
        // Grouped by rate: each rate once per side, bids falling, asks rising, the amounts summed.
        for (let i = 1; i < packed.bids; i++) expect(rate(i)).toBeLessThan(rate(i - 1));
        for (let i = packed.bids + 1; i < n; i++) expect(rate(i)).toBeGreaterThan(rate(i - 1));
        let sum = 0;
        for (let i = 0; i < book.bids.size; i++) sum += Math.abs(book.bids.amount[i] as number);
        const bidTotal = packed.bids > 0 ? (packed.levels[(packed.bids - 1) * BOOK_VIEW_STRIDE + 3] as number) : 0;
        if (packed.bids < 100) expect(bidTotal).toBeCloseTo(sum, 6);
      } else {
        // Raw: one row per offer, so as many rows as offers the book holds (up to the depth).
        expect(packed.bids).toBe(Math.min(100, book.bids.size));
      }
    }
    conn.stop();
    t.dispose();
  });
});

/** Files beside this checkout that hold a funding book subscription (`"channel":"book"` on an f-symbol). */
function recordedFundingBooks(): { readonly dir: string | null; readonly files: readonly string[] } {
  const shared = sharedBitfinexDir();
  if (!shared) return { dir: null, files: [] };
  const dir = join(shared, "recordings");
  const files = existsSync(dir) ? readdirSync(dir).map((f) => join(dir, f)) : [];
  const funding = /"channel"\s*:\s*"book"[^}]*"symbol"\s*:\s*"f[A-Z]/;
  return {
    dir,
    files: files.filter((f) => {
      const raw = readFileSync(f);
      return funding.test((f.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8"));
    }),
  };
}

const recorded = recordedFundingBooks();

describe.skipIf(recorded.files.length === 0)("recorded funding books", () => {
  it.each(recorded.files)("%s replays with every funding checksum kept", (file) => {
    const r = replayFile(file);
    expect(r.checksums.failed).toBe(0);
    expect(r.unknownDeletes).toBe(0);
  });
});

if (recorded.files.length === 0) {
  describe("recorded funding books", () => {
    it.skip(
      recorded.dir === null
        ? "skipped: ../shared/bitfinex is not beside this checkout"
        : "skipped: ../shared/bitfinex holds no funding book traffic (its recorded and fixture books are trading books)",
      () => {},
    );
  });
}
