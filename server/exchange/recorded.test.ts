/**
 * This server's REST and WebSocket output against recorded real traffic in ../shared/bitfinex
 * (recordings/ and fixtures/; see its README): for every response type a recording holds that this
 * server also serves, both sides are decoded through src/protocol (record codecs, the book, the
 * frame classifier) and compared field by field — count, types, order. A field the real server
 * left null matches anything; fields this server adds beyond a recording must be the trailing
 * ones docs/protocol.md#tickers documents for today's wire (the ticker's 11th null, the funding ticker's last
 * three). Skipped, saying so, when ../shared is absent.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  classifyFrame,
  CONF_FLAGS,
  fundingTickerCodec,
  newFrameInfo,
  OrderBook,
  publicFundingTradeCodec,
  publicTradeCodec,
  splitPair,
  tickerCodec,
} from "../../src/protocol/index.ts";
import type { ApiServer } from "../api-server.ts";
import { parseRecording, readRecordingText, sharedBitfinexDir } from "./recordings.ts";
import { listenApi } from "../test-support/api.ts";
import { wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

const shared = sharedBitfinexDir();
const present = shared !== null && existsSync(join(shared, "recordings")) && existsSync(join(shared, "fixtures"));

/** A value's wire type: n(umber), s(tring), b(oolean), null, a(rray), o(bject). */
const typeOf = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "a" : typeof v === "object" ? "o" : ((typeof v)[0] ?? "?");

/**
 * Whether this server's row has the recorded row's fields, in order and of the same types (a null
 * on the recorded side matches anything), with at most `extra` further fields, all null unless
 * `extraTypes` names them.
 */
function sameFields(ours: unknown, theirs: unknown, extra = 0, extraTypes: readonly string[] = []): string | null {
  if (!Array.isArray(ours) || !Array.isArray(theirs)) return `not rows: ${typeOf(ours)} / ${typeOf(theirs)}`;
  if (ours.length < theirs.length || ours.length > theirs.length + extra)
    return `length ${ours.length}, recorded ${theirs.length}`;
  for (let i = 0; i < ours.length; i++) {
    if (i >= theirs.length) {
      const want = extraTypes[i - theirs.length] ?? "null";
      if (typeOf(ours[i]) !== want && ours[i] !== null) return `field ${i}: ${typeOf(ours[i])}, documented ${want}`;
      continue;
    }
    if (theirs[i] !== null && typeOf(ours[i]) !== typeOf(theirs[i]))
      return `field ${i}: ${typeOf(ours[i])}, recorded ${typeOf(theirs[i])}`;
  }
  return null;
}

const readJson = (name: string): unknown =>
  JSON.parse(readFileSync(join(shared as string, "fixtures", name), "utf8")) as unknown;

/** Bids best-first then asks best-first, as snapshots come (docs/protocol.md#books; R0 ties by ascending id). */
function wellOrdered(entries: number[][], raw: boolean): boolean {
  const price = (e: number[]): number => (raw ? (e[1] as number) : (e[0] as number));
  const bid = (e: number[]): boolean => (e[2] as number) > 0;
  const bids = entries.filter(bid);
  const asks = entries.filter((e) => !bid(e));
  if (entries.findIndex((e) => !bid(e)) >= 0 && entries.slice(entries.findIndex((e) => !bid(e))).some(bid))
    return false;
  const sorted = (xs: number[][], dir: 1 | -1): boolean =>
    xs.every((e, i) => {
      const prev = xs[i - 1];
      if (!prev) return true;
      const d = (price(e) - price(prev)) * dir;
      return d > 0 || (d === 0 && raw && (e[0] as number) > (prev[0] as number));
    });
  return sorted(bids, -1) && sorted(asks, 1);
}

describe.skipIf(!present)(
  "output against recorded real traffic (needs ../shared/bitfinex; skipped when absent)",
  () => {
    const venue = openVenue({ dbPath: ":memory:", seed: 8 });
    let api: ApiServer;
    let host = "";
    beforeAll(async () => {
      ({ api, host } = await listenApi({
        exchange: venue.exchange,
        account: venue.gateway,
        heartbeatMs: 150,
        limits: { public: 10_000, auth: 1000, login: 10 },
      }));
      for (let i = 0; i < 30; i++) venue.exchange.simulator.step();
    });
    afterAll(() => api.close());
    const get = async (path: string): Promise<unknown> => (await fetch(`http://${host}${path}`)).json();

    it("REST conf lists: the recorded keys answer with the same shape, every pair splitting as src/protocol does", async () => {
      const text = readFileSync(join(shared as string, "recordings", "cryptofeed__BITFINEX.0.txt"), "utf8");
      const recorded = [...text.matchAll(/^https:\/\/[^/]+(\/v2\/conf\/\S+) -> [\d.]+: (.*)$/gm)];
      expect(recorded.length).toBeGreaterThanOrEqual(3);
      for (const [, path, body] of recorded) {
        const theirs = JSON.parse(body as string) as string[][];
        const ours = (await get(path as string)) as string[][];
        expect(ours, path).toHaveLength(theirs.length);
        expect(ours[0]?.length, `${path} is empty here`).toBeGreaterThan(0);
        expect(ours[0]?.every((x) => typeof x === "string")).toBe(true);
        if (/pair/.test(path as string)) {
          expect(theirs[0]?.every((p) => splitPair(p) !== null)).toBe(true);
          expect(ours[0]?.filter((p) => splitPair(p) === null)).toEqual([]);
        } else expect(ours[0]?.filter((c) => !/^[A-Z0-9]+$/.test(c))).toEqual([]);
      }
    });

    it("REST ticker and trades against the recorded responses", async () => {
      const tick = readJson("bitfinex-api-node__response-ticker-pairs.json");
      const ours = await get("/v2/ticker/tBTCUSD");
      expect(tickerCodec.decode(tick).ok && tickerCodec.decode(ours).ok).toBe(true);
      expect(sameFields(ours, tick, 1)).toBeNull();
      const ftick = readJson("bitfinex-api-node__response-ticker-funding.json");
      const fours = await get("/v2/ticker/fUSD");
      expect(fundingTickerCodec.decode(fours).ok).toBe(true);
      // 2017's funding ticker ends at LOW; today's wire adds null, null, FRR_AMOUNT_AVAILABLE.
      expect(sameFields(fours, ftick, 3, ["null", "null", "n"])).toBeNull();
      for (const [file, path, codec] of [
        ["bitfinex-api-node__response-trades-pairs.json", "/v2/trades/tBTCUSD/hist", publicTradeCodec],
        ["bitfinex-api-node__response-trades-funding.json", "/v2/trades/fUSD/hist", publicFundingTradeCodec],
      ] as const) {
        const theirs = readJson(file) as unknown[];
        const rows = (await get(path)) as unknown[];
        expect(codec.decodeList(theirs).ok, file).toBe(true);
        expect(codec.decodeList(rows).ok, path).toBe(true);
        expect(rows.length).toBeGreaterThan(0);
        for (const r of rows) expect(sameFields(r, theirs[0])).toBeNull();
        // Newest first, as recorded.
        const mts = (xs: unknown[]): number[] => xs.map((x) => (x as number[])[1] as number);
        expect(mts(rows)).toEqual([...mts(rows)].sort((a, b) => b - a));
      }
    });

    /** A socket with `flags`, subscribed to `subs`; every frame, and chanId → channel. */
    async function session(
      flags: number,
      subs: Record<string, unknown>[],
      drive: () => Promise<void>,
    ): Promise<{ frames: unknown[]; channels: Map<number, string> }> {
      const ws = new WebSocket(`ws://${host}/ws/2`);
      const frames: unknown[] = [];
      ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
      await new Promise((r) => ws.once("open", r));
      if (flags) ws.send(JSON.stringify({ event: "conf", flags }));
      for (const s of subs) ws.send(JSON.stringify({ event: "subscribe", ...s }));
      await wait(100);
      await drive();
      ws.close();
      return { frames, channels: channelsOf(frames) };
    }

    function channelsOf(frames: unknown[]): Map<number, string> {
      const out = new Map<number, string>();
      for (const f of frames) {
        const e = f as Record<string, unknown>;
        if (!Array.isArray(f) && e["event"] === "subscribed") {
          const prec = e["prec"] === "R0" ? ":R0" : "";
          out.set(e["chanId"] as number, `${String(e["channel"])}${prec}`);
        }
      }
      return out;
    }

    /**
     * Each frame as [kind, value]: `event:<name>` with its sorted keys, `<channel>:snapshot` (the first
     * data frame after `subscribed`), `<channel>:update`, `trades:te|tu`, `hb`, with the
     * classifier's suffix (SEQ_ALL) kept apart as `seq` so both sides compare without it.
     */
    function kinds(frames: unknown[], flags: number, channels: Map<number, string>): Map<string, unknown[]> {
      const out = new Map<string, unknown[]>();
      const add = (k: string, v: unknown): void => void (out.get(k) ?? out.set(k, []).get(k))?.push(v);
      const info = newFrameInfo();
      const seen = new Set<number>();
      for (const f of frames) {
        const kind = classifyFrame(f, flags, info);
        if (kind === "event") {
          const e = info.payload as Record<string, unknown>;
          add(`event:${info.type}`, Object.keys(e).sort().join(","));
          continue;
        }
        const channel = channels.get(info.chanId);
        if (!channel) continue;
        if (kind === "heartbeat") add("hb", (flags & CONF_FLAGS.SEQ_ALL) !== 0 ? info.seq > 0 : true);
        else if (kind === "trade") add(`trades:${info.type}`, info.payload);
        else if (kind === "data") {
          const first = !seen.has(info.chanId);
          seen.add(info.chanId);
          add(`${channel}:${first ? "snapshot" : "update"}`, info.payload);
        }
      }
      return out;
    }

    /** Compares every kind both sides have; returns the problems and the kinds compared. */
    function compare(
      ours: Map<string, unknown[]>,
      theirs: Map<string, unknown[]>,
    ): { problems: string[]; kinds: string[] } {
      const problems: string[] = [];
      const compared: string[] = [];
      for (const [kind, recorded] of theirs) {
        const mine = ours.get(kind);
        if (!mine) continue;
        compared.push(kind);
        const ref = recorded[0];
        for (const v of mine.slice(0, 50)) {
          let p: string | null = null;
          if (kind.startsWith("event:")) {
            // Events: the same keys (the recorded set may lack keys only a request's own fields add).
            if (!recorded.includes(v)) p = `keys ${String(v)}, recorded ${recorded.join(" | ")}`;
          } else if (kind === "hb") p = v === ref ? null : "hb suffix";
          else if (kind.startsWith("ticker:")) {
            p = tickerCodec.decode(v).ok ? sameFields(v, ref, 1) : "ticker does not decode";
          } else if (kind.startsWith("trades:")) {
            const rows = (kind === "trades:snapshot" ? v : [v]) as unknown[];
            const refRow = kind === "trades:snapshot" ? (ref as unknown[])[0] : ref;
            p = publicTradeCodec.decodeList(rows).ok
              ? (rows.map((r) => sameFields(r, refRow)).find(Boolean) ?? null)
              : "trades do not decode";
          } else if (kind.startsWith("book")) {
            const raw = kind.startsWith("book:R0");
            const book = new OrderBook({ kind: raw ? "raw" : "price", len: 100 });
            const entries = (kind.endsWith("snapshot") ? v : [v]) as number[][];
            const refEntry = kind.endsWith("snapshot") ? (ref as unknown[])[0] : ref;
            if (kind.endsWith("snapshot")) {
              if (!book.applySnapshot(entries)) p = "snapshot does not apply";
              else if (!wellOrdered(entries, raw)) p = "snapshot order";
            } else if (!book.applyEntry(v)) p = "update does not apply";
            p ??= entries.map((e) => sameFields(e, refEntry)).find(Boolean) ?? null;
          }
          if (p) problems.push(`${kind}: ${p} in ${JSON.stringify(v).slice(0, 120)}`);
        }
      }
      return { problems, kinds: compared.sort() };
    }

    async function ours(flags: number, len: string): Promise<Map<string, unknown[]>> {
      const subs = ["tBTCUSD", "tTESTBTC:TESTUSD"].flatMap((symbol) => [
        { channel: "ticker", symbol },
        { channel: "book", symbol, prec: "P0", freq: "F0", len },
        { channel: "trades", symbol },
      ]);
      const s = await session(flags, subs, async () => {
        for (let i = 0; i < 8; i++) {
          venue.exchange.simulator.step();
          venue.exchange.place("tBTCUSD", 0, i % 2 ? "buy" : "sell", "MARKET", Number.NaN, 0.05);
          await wait(150);
        }
      });
      return kinds(s.frames, flags, s.channels);
    }

    it("WebSocket with SEQ_ALL against cryptofeed's 2021 recording (ticker, book P0 len 100, trades)", async () => {
      const rec = parseRecording(
        readRecordingText(join(shared as string, "recordings", "cryptofeed__BITFINEX.ws.11.0.txt")),
      );
      const frames = rec.items.flatMap((i) => (i.kind === "frame" ? [JSON.parse(i.text) as unknown] : []));
      const theirs = kinds(frames, CONF_FLAGS.SEQ_ALL, channelsOf(frames));
      const r = compare(await ours(CONF_FLAGS.SEQ_ALL, "100"), theirs);
      expect(r.problems).toEqual([]);
      expect(r.kinds).toEqual(
        expect.arrayContaining([
          "book:snapshot",
          "book:update",
          "event:conf",
          "event:info",
          "event:subscribed",
          "hb",
          "ticker:snapshot",
          "ticker:update",
          // Its quiet pairs traded nothing while recorded: te/tu are compared with marfusios' below.
          "trades:snapshot",
        ]),
      );
    });

    it("WebSocket without flags against marfusios' 2018 recording (book P0 len 100, trades)", async () => {
      // The first part of the 4 MB stream holds every kind it has; reading all of it adds nothing.
      const text = readRecordingText(join(shared as string, "recordings", "marfusios__bitfinex_raw_2018-11-12.txt.gz"));
      const rec = parseRecording(text.slice(0, text.indexOf(";;", 1_500_000)));
      const frames = rec.items.flatMap((i) => (i.kind === "frame" ? [JSON.parse(i.text) as unknown] : []));
      const theirs = kinds(frames, 0, channelsOf(frames));
      const r = compare(await ours(0, "100"), theirs);
      expect(r.problems).toEqual([]);
      expect(r.kinds).toEqual(
        expect.arrayContaining([
          "book:snapshot",
          "book:update",
          "event:info",
          "event:subscribed",
          "hb",
          "trades:snapshot",
          "trades:te",
        ]),
      );
    });

    it("WebSocket snapshots against the bitfinex-api-node fixtures (book P0, P1, R0, trades, funding ticker)", async () => {
      const s = await session(
        0,
        [
          { channel: "book", symbol: "tBTCUSD", prec: "P0", len: "25" },
          { channel: "book", symbol: "tBTCUSD", prec: "P1", len: "25" },
          { channel: "book", symbol: "tBTCUSD", prec: "R0", len: "100" },
          { channel: "trades", symbol: "tBTCUSD" },
          { channel: "ticker", symbol: "fUSD" },
        ],
        () => wait(50),
      );
      const snapshots = new Map<string, unknown>();
      for (const f of s.frames) {
        const channel = Array.isArray(f) ? s.channels.get(f[0] as number) : undefined;
        const prec = Array.isArray(f) ? [...s.channels.keys()].indexOf(f[0] as number) : -1;
        if (channel && Array.isArray(f) && Array.isArray(f[1]) && !snapshots.has(`${channel}#${prec}`))
          snapshots.set(`${channel}#${prec}`, f[1]);
      }
      const at = (i: number): unknown => [...snapshots.entries()].find(([k]) => k.endsWith(`#${i}`))?.[1];
      for (const [i, file, kind] of [
        [0, "bitfinex-api-node__response-ws2-server-order-book-P0.json", "price"],
        [1, "bitfinex-api-node__response-ws2-server-order-book-P1.json", "price"],
        [2, "bitfinex-api-node__response-ws2-server-order-book-R0.json", "raw"],
        [2, "bitfinex-api-node__response-ws-1-orderbook-R0.json", "raw"],
      ] as const) {
        const theirs = (readJson(file) as unknown[])[1] as number[][];
        const mine = at(i) as number[][];
        const a = new OrderBook({ kind, len: 100 });
        const b = new OrderBook({ kind, len: 100 });
        expect(a.applySnapshot(theirs) && b.applySnapshot(mine), file).toBe(true);
        expect(mine.map((e) => sameFields(e, theirs[0])).filter(Boolean), file).toEqual([]);
        expect(wellOrdered(mine, kind === "raw"), `${file}: order`).toBe(true);
      }
      const trades = (readJson("bitfinex-api-node__response-ws2-server-trades.json") as unknown[])[1] as unknown[];
      const mineTrades = at(3) as unknown[];
      expect(publicTradeCodec.decodeList(mineTrades).ok).toBe(true);
      expect(mineTrades.map((t) => sameFields(t, trades[0])).filter(Boolean)).toEqual([]);
      const ftick = (readJson("bitfinex-api-node__response-ws2-server-ticker-funding.json") as unknown[])[1];
      expect(fundingTickerCodec.decode(at(4)).ok).toBe(true);
      expect(sameFields(at(4), ftick, 3, ["null", "null", "n"])).toBeNull();
    });
  },
);
