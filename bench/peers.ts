/**
 * The peers, each wrapped to do the same work per frame as our core: parse the frame text, apply a
 * book update, and on a `cs` frame compute its own checksum and compare. Installed from npm as
 * devDependencies of the bench only (bench/package.json).
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CONF_FLAGS } from "../src/protocol/index.ts";
import { FeedCore } from "../src/workers/core/index.ts";
import type { GeneratedStream } from "./generator.ts";

export interface PeerRun {
  /** Processes every frame; returns checksum agreements and disagreements. */
  run(frames: readonly string[]): { ok: number; failed: number };
}

export interface Peer {
  readonly name: string;
  /** Builds a book from the stream's snapshot (not timed). */
  create(stream: GeneratedStream): PeerRun;
}

/** bench/ itself; a bundled run (scripts/run-ts.mjs) passes it in ENTRY_DIR. */
const benchDir = process.env["ENTRY_DIR"] ?? new URL(".", import.meta.url).pathname;
const require = createRequire(join(benchDir, "package.json"));

type CrcStr = (s: string) => number;
const CRC = require("crc-32") as { str: CrcStr };

/** Ours: the worker's FeedCore, text in, with checksum verification on. */
export const ours: Peer = {
  name: "ours (FeedCore)",
  create(stream) {
    const core = new FeedCore({ send: () => {}, now: () => 0, flags: CONF_FLAGS.OB_CHECKSUM });
    core.onOpen();
    core.onMessage(JSON.stringify({ event: "conf", status: "OK", flags: CONF_FLAGS.OB_CHECKSUM }));
    core.onMessage(
      JSON.stringify({
        event: "subscribed",
        channel: "book",
        chanId: stream.chanId,
        symbol: "tBTCUSD",
        prec: "P0",
        freq: "F0",
        len: String(stream.len),
      }),
    );
    core.onMessage(stream.snapshot);
    return {
      run(frames) {
        const before = { ok: core.stats.checksumsOk, failed: core.stats.checksumsFailed };
        for (let i = 0; i < frames.length; i++) core.onMessage(frames[i] as string);
        return { ok: core.stats.checksumsOk - before.ok, failed: core.stats.checksumsFailed - before.failed };
      },
    };
  },
};

interface BfxOrderBook {
  updateWith(entry: number[]): boolean;
  checksum(): number;
}
type BfxOrderBookCtor = new (snap: number[][], raw: boolean) => BfxOrderBook;

/** bitfinexcom/bfx-api-node-models OrderBook: the official models library. */
export const bfxModels: Peer = {
  name: "bfx-api-node-models",
  create(stream) {
    const { OrderBook } = require("bfx-api-node-models") as { OrderBook: BfxOrderBookCtor };
    const snap = (JSON.parse(stream.snapshot) as [number, number[][]])[1];
    const ob = new OrderBook(snap, false);
    return {
      run(frames) {
        let ok = 0;
        let failed = 0;
        for (let i = 0; i < frames.length; i++) {
          const msg = JSON.parse(frames[i] as string) as unknown[];
          if (msg[1] === "cs") {
            if (ob.checksum() === msg[2]) ok++;
            else failed++;
          } else ob.updateWith(msg[1] as number[]);
        }
        return { ok, failed };
      },
    };
  },
};

interface CcxtSide {
  storeArray(delta: number[]): void;
  readonly length: number;
  readonly [i: number]: number[];
}
interface CcxtBook {
  bids: CcxtSide;
  asks: CcxtSide;
}
type CcxtBookCtor = new (snapshot: object, depth?: number) => CcxtBook;

let ccxtCtor: CcxtBookCtor | null = null;
export async function loadCcxt(): Promise<void> {
  const file = join(benchDir, "node_modules", "ccxt", "js", "src", "base", "ws", "OrderBook.js");
  const mod = (await import(pathToFileURL(file).href)) as { CountedOrderBook: CcxtBookCtor };
  ccxtCtor = mod.CountedOrderBook;
}

/**
 * ccxt's counted order book (what its Bitfinex adapter keeps: [price, size, count] per level, a
 * level deleted when its count is 0), with the checksum built the way its adapter does: the top 25
 * of each side interleaved, stringified, CRC-32.
 */
export const ccxt: Peer = {
  name: "ccxt CountedOrderBook",
  create(stream) {
    if (!ccxtCtor) throw new Error("call loadCcxt() first");
    const ob = new ccxtCtor({}, stream.len);
    const snap = (JSON.parse(stream.snapshot) as [number, number[][]])[1];
    for (const [p, c, a] of snap as [number, number, number][])
      (a > 0 ? ob.bids : ob.asks).storeArray([p, Math.abs(a), c]);
    return {
      run(frames) {
        let ok = 0;
        let failed = 0;
        for (let i = 0; i < frames.length; i++) {
          const msg = JSON.parse(frames[i] as string) as unknown[];
          if (msg[1] === "cs") {
            const t: string[] = [];
            for (let k = 0; k < 25; k++) {
              const b = ob.bids[k];
              const a = ob.asks[k];
              if (b && k < ob.bids.length) t.push(String(b[0]), String(b[1]));
              if (a && k < ob.asks.length) t.push(String(a[0]), String(-(a[1] as number)));
            }
            if (CRC.str(t.join(":")) === msg[2]) ok++;
            else failed++;
          } else {
            const [p, c, a] = msg[1] as [number, number, number];
            (a > 0 ? ob.bids : ob.asks).storeArray([p, Math.abs(a), c]);
          }
        }
        return { ok, failed };
      },
    };
  },
};

/** A naive Map-based book: what a first implementation usually looks like (sort on every checksum). */
export const naive: Peer = {
  name: "naive Map book",
  create(stream) {
    const bids = new Map<number, number>();
    const asks = new Map<number, number>();
    const snap = (JSON.parse(stream.snapshot) as [number, number[][]])[1];
    for (const [p, , a] of snap as [number, number, number][]) (a > 0 ? bids : asks).set(p, a);
    return {
      run(frames) {
        let ok = 0;
        let failed = 0;
        for (let i = 0; i < frames.length; i++) {
          const msg = JSON.parse(frames[i] as string) as unknown[];
          if (msg[1] === "cs") {
            const b = [...bids].sort((x, y) => y[0] - x[0]);
            const a = [...asks].sort((x, y) => x[0] - y[0]);
            const t: string[] = [];
            for (let k = 0; k < 25; k++) {
              if (b[k]) t.push(String(b[k]?.[0]), String(b[k]?.[1]));
              if (a[k]) t.push(String(a[k]?.[0]), String(a[k]?.[1]));
            }
            if (CRC.str(t.join(":")) === msg[2]) ok++;
            else failed++;
          } else {
            const [p, c, amt] = msg[1] as [number, number, number];
            const side = amt > 0 ? bids : asks;
            if (c > 0) {
              side.set(p, amt);
              (amt > 0 ? asks : bids).delete(p);
            } else side.delete(p);
          }
        }
        return { ok, failed };
      },
    };
  },
};

/** JSON.parse of every frame and nothing else: the floor any text-in core pays. */
export const parseOnly: Peer = {
  name: "JSON.parse only (floor)",
  create() {
    return {
      run(frames) {
        let n = 0;
        for (let i = 0; i < frames.length; i++) n += (JSON.parse(frames[i] as string) as unknown[]).length;
        return { ok: n > 0 ? 0 : 0, failed: 0 };
      },
    };
  },
};
