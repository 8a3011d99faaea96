/**
 * The public channels of the socket (docs/protocol.md#books, #trades, #tickers, #candles,
 * #derivatives-status), for trading pairs and funding currencies alike: `book` (P0–P4, R0; `cs` on
 * request; `freq: "F1"` trading books batched), `trades` (`te`/`tu`, funding `fte`/`ftu`), `ticker`,
 * `candles` (`trade:1m:tBTCUSD`, `trade:1m:fUSD:p30`, `trade:1m:fUSD:a30:p2:p30`) and `status`
 * (`deriv:SYMBOL`, `liq:global`, `rank:KIND:TF:SYMBOL`). ws-public.ts keeps the sockets, flags and
 * suffixes; a channel only says what goes out on it: each returned part list is one frame after the
 * channel id.
 */
import {
  CANDLE_SNAPSHOT_LIMIT,
  CONF_FLAGS,
  ERROR_CODES,
  parseRankingKey,
  publicFundingTradeCodec,
  publicTradeCodec,
  tickerCodec,
} from "../../src/protocol/index.ts";
import { derivStatusRow } from "./derived.ts";
import type { Batch, Exchange } from "./exchange.ts";
import type { Feed } from "./feeds.ts";
import { parseCandleFilter, type FundingBatch, type FundingMarket } from "./funding-market.ts";
import type { Market } from "./market.ts";
import { PRECISIONS, TIMEFRAMES } from "./market-data.ts";

export interface Channel {
  /** What a second subscription to the same data is refused by (10301). */
  readonly key: string;
  /** What the `subscribed` event echoes. */
  readonly fields: Record<string, string>;
  snapshot(flags: number, now: number): unknown[][];
  onBatch?(b: Batch | FundingBatch, flags: number): unknown[][];
  /** On the ticker timer: the row when it changed since the last one sent. */
  tick?(now: number): unknown[][];
  /** On the F1 timer: a batched book's changes since the last one. */
  flush?(flags: number): unknown[][];
  liquidation?(row: unknown[]): unknown[][];
}

/** What every channel is given: its duplicate key and the fields `subscribed` echoes. */
abstract class BaseChannel {
  constructor(
    readonly key: string,
    readonly fields: Record<string, string>,
  ) {}
}

const checksum = (feed: Feed<{ symbol: string }>, flags: number): unknown[][] =>
  (flags & CONF_FLAGS.OB_CHECKSUM) !== 0 ? [["cs", feed.mirror.checksum()]] : [];

class BookChannel extends BaseChannel implements Channel {
  /** `freq: "F1"`: changes held until the next tick, the last per side and price (or order id). */
  readonly #pending: Map<string, unknown[]> | null;
  constructor(
    readonly feed: Feed<{ symbol: string }>,
    fields: Record<string, string>,
    batched: boolean,
  ) {
    super(`book|${feed.market.symbol}|${feed.prec}|${feed.len}`, fields);
    this.#pending = batched ? new Map() : null;
  }

  snapshot(flags: number): unknown[][] {
    return [[this.feed.snapshot()], ...checksum(this.feed, flags)];
  }

  onBatch(b: Batch | FundingBatch, flags: number): unknown[][] {
    // The batch carries each feed's diff, computed once for every server.
    const entries = (b.bookDiffs as ReadonlyMap<unknown, unknown[][]>).get(this.feed);
    if (!entries || entries.length === 0) return [];
    if (!this.#pending) return this.#send(entries, flags);
    // Keyed by side too: a price can leave the bids and reach the asks within one tick, and the
    // client must get both the bid's delete and the ask (the sign of AMOUNT tells the side).
    for (const e of entries) this.#pending.set(`${String(e[0])}|${Math.sign(e[2] as number)}`, e);
    return [];
  }

  /**
   * What changed since the last tick, one entry per side and price (raw: per order id), the last
   * one — entries are absolute, so the client ends where the feed's mirror is and `cs` is its
   * checksum. Deletes go first (a count of 0 for aggregated books, a price of 0 for raw ones:
   * index 1 either way), so a client's len window never overflows.
   */
  flush(flags: number): unknown[][] {
    if (!this.#pending || this.#pending.size === 0) return [];
    const entries = [...this.#pending.values()];
    this.#pending.clear();
    entries.sort((a, b) => Number(a[1] !== 0) - Number(b[1] !== 0));
    return this.#send(entries, flags);
  }

  /** Book changes as frames (one bulk frame when the client asked for them), then `cs` if asked. */
  #send(entries: unknown[][], flags: number): unknown[][] {
    const bulk = (flags & CONF_FLAGS.BULK_UPDATES) !== 0 && entries.length > 1;
    return [...(bulk ? [[entries]] : entries.map((e) => [e])), ...checksum(this.feed, flags)];
  }
}

class TradesChannel<T> extends BaseChannel implements Channel {
  constructor(
    readonly market: { readonly symbol: string; readonly trades: readonly T[] },
    readonly encode: (t: T) => unknown[],
    /** `te`/`tu` on trading pairs, `fte`/`ftu` on funding currencies. */
    readonly prefix: "" | "f",
  ) {
    super(`trades|${market.symbol}`, { symbol: market.symbol });
  }

  snapshot(): unknown[][] {
    return [[this.market.trades.slice(0, 30).map((t) => this.encode(t))]];
  }

  onBatch(b: Batch | FundingBatch): unknown[][] {
    if ((b.market as unknown) !== this.market) return [];
    const rows = (b.trades as readonly T[]).map((t) => this.encode(t));
    return [...rows.map((r) => [`${this.prefix}te`, r]), ...rows.map((r) => [`${this.prefix}tu`, r])];
  }
}

/** A row sent when it changes (tickers, derivatives status), on the ticker timer. */
class RowChannel extends BaseChannel implements Channel {
  #last = "";
  constructor(
    key: string,
    fields: Record<string, string>,
    readonly row: (now: number) => unknown[],
    readonly o: {
      /** The clock of the snapshot, when not the socket server's. */
      readonly clock?: () => number;
      /** Whether the snapshot counts as sent (else the first tick repeats it, as the trading ticker does). */
      readonly remember?: boolean;
      /** An empty row (no status to report yet) is not sent on the timer. */
      readonly skipEmpty?: boolean;
    } = {},
  ) {
    super(key, fields);
  }

  snapshot(_flags: number, now: number): unknown[][] {
    const row = this.row(this.o.clock?.() ?? now);
    if (this.o.remember) this.#last = JSON.stringify(row);
    return [[row]];
  }

  tick(now: number): unknown[][] {
    const text = JSON.stringify(this.row(now));
    if (text === this.#last || (this.o.skipEmpty && text === "[]")) return [];
    this.#last = text;
    return [[JSON.parse(text) as unknown]];
  }
}

class CandlesChannel extends BaseChannel implements Channel {
  constructor(
    key: string,
    readonly market: Market | FundingMarket,
    readonly rows: () => readonly number[][],
    /** Whether a batch's trades are in this series (a funding series covers a period range). */
    readonly covers: (b: Batch | FundingBatch) => boolean = () => true,
  ) {
    super(`candles|${key}`, { key });
  }

  snapshot(): unknown[][] {
    return [[this.rows().slice(-CANDLE_SNAPSHOT_LIMIT).reverse()]];
  }

  onBatch(b: Batch | FundingBatch): unknown[][] {
    if (b.market !== this.market || b.trades.length === 0) return [];
    const rows = this.rows();
    const last = rows[rows.length - 1];
    return last && this.covers(b) ? [[last]] : [];
  }
}

/** `liq:global`: an empty snapshot, as the real one in a quiet market; each liquidation an update. */
class LiquidationChannel extends BaseChannel implements Channel {
  snapshot(): unknown[][] {
    return [[[]]];
  }

  liquidation(row: unknown[]): unknown[][] {
    return [[[row]]];
  }
}

export type Subscription = { readonly channel: Channel } | { readonly error: [number, string] } | null;

const LENGTHS = new Set(["1", "25", "100", "250"]);

/**
 * The channel a `subscribe` request asks for on `symbol` (already `t`/`f`-prefixed), the refusal
 * (10300 with its reason), or null for no reply at all: an unknown `deriv:` status key gets none on
 * the live server (docs/protocol.md#derivatives-status, probed).
 */
export function subscription(ex: Exchange, m: Record<string, unknown>, symbol: string): Subscription {
  const fail = (msg: string): Subscription => ({ error: [ERROR_CODES.SUB_FAILED, msg] });
  const channel = m["channel"];
  const key = typeof m["key"] === "string" ? m["key"] : "";
  const market = ex.markets.get(symbol);
  const funding = ex.funding.markets.get(symbol);
  switch (channel) {
    case "book": {
      const prec = typeof m["prec"] === "string" ? m["prec"] : "P0";
      const asked = m["len"];
      // Anything but a number or a string is no length: "" fails the check below like a bad one.
      const len =
        asked === undefined ? "25" : typeof asked === "number" || typeof asked === "string" ? String(asked) : "";
      const freq = typeof m["freq"] === "string" ? m["freq"] : "F0";
      if (!market && !funding) return fail("symbol: invalid");
      if (prec !== "R0" && !(PRECISIONS as readonly string[]).includes(prec)) return fail("precision: invalid");
      // Raw trading books come in 1, 25 and 100 orders only (docs/protocol.md#raw-books).
      if (!LENGTHS.has(len) || (market && prec === "R0" && len === "250")) return fail("length: invalid");
      if (freq !== "F0" && freq !== "F1") return fail("freq: invalid");
      const feed = market
        ? ex.bookFeed(symbol, prec as "R0", Number(len))
        : ex.funding.bookFeed(symbol, prec, Number(len));
      if (!feed) return fail("symbol: invalid");
      // F1 batches trading books; a funding book sends its changes as they come.
      return { channel: new BookChannel(feed, { symbol, prec, freq, len }, market !== undefined && freq === "F1") };
    }
    case "trades":
      if (market) return { channel: new TradesChannel(market, (t) => publicTradeCodec.encode(t), "") };
      if (funding) return { channel: new TradesChannel(funding, (t) => publicFundingTradeCodec.encode(t), "f") };
      return fail("symbol: invalid");
    case "ticker":
      // The trading ticker as the live socket sends it: the documented 10 fields and a trailing null.
      if (market)
        return {
          channel: new RowChannel(`ticker|${symbol}`, { symbol }, (now) =>
            tickerCodec.encode(market.tickerRecord(now), 11),
          ),
        };
      if (funding)
        return {
          channel: new RowChannel(`ticker|${symbol}`, { symbol }, (now) => funding.ticker(now), {
            clock: funding.now,
            remember: true,
          }),
        };
      return fail("symbol: invalid");
    case "candles":
      return candles(ex, key) ?? fail("key: invalid");
    case "status": {
      if (key === "liq:global") return { channel: new LiquidationChannel(`status|${key}`, { key }) };
      if (key.startsWith("rank:")) {
        // A leaderboard (rankings.ts): the whole board as the snapshot, again on the ticker timer
        // whenever it changed — a board is short and its ranks move together.
        const board = parseRankingKey(key);
        const rankings = ex.rankings;
        if (!board || !rankings) return fail("key: invalid");
        return {
          channel: new RowChannel(`status|${key}`, { key }, (now) => rankings.board(board, now, now), {
            remember: true,
          }),
        };
      }
      const deriv = /^deriv:(t[A-Z0-9:]+)$/.exec(key)?.[1];
      if (deriv === undefined) return fail("key: invalid");
      if (!ex.markets.has(deriv)) return null;
      const row = (now: number): unknown[] => derivStatusRow(ex, deriv, now) ?? [];
      return { channel: new RowChannel(`status|${key}`, { key }, row, { skipEmpty: true }) };
    }
    default:
      return fail("channel: unknown");
  }
}

/** A candles key: `trade:TF:tSYMBOL`, or `trade:TF:fSYMBOL:FILTER` with a funding period filter. */
function candles(ex: Exchange, key: string): Subscription {
  const trading = /^trade:([0-9]+[mhDWM]):(t[A-Z0-9:]+)$/.exec(key);
  const funding = /^trade:([0-9]+[mhDWM]):(f[A-Z0-9]+):(.+)$/.exec(key);
  const tf = (trading ?? funding)?.[1] ?? "";
  if (!(tf in TIMEFRAMES)) return null;
  const market = trading ? ex.markets.get(trading[2] as string) : undefined;
  if (market) return { channel: new CandlesChannel(key, market, () => market.candles.get(tf) ?? []) };
  const fm = funding ? ex.funding.markets.get(funding[2] as string) : undefined;
  const filter = funding?.[3] ?? "";
  const range = parseCandleFilter(filter);
  if (!fm || !range || !fm.candles(tf, filter)) return null;
  const covers = (b: Batch | FundingBatch): boolean =>
    (b as FundingBatch).trades.some((t) => t.period >= range.from && t.period <= range.to);
  return { channel: new CandlesChannel(key, fm, () => fm.candles(tf, filter) ?? [], covers) };
}
