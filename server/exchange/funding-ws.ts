/**
 * The public WebSocket channels of the funding markets (PROTOCOL.md 2.1–2.5): `book` (P0–P4,
 * `[RATE, PERIOD, COUNT, AMOUNT]`, bids negative; R0 `[OFFER_ID, PERIOD, RATE, AMOUNT]`; `cs` on
 * request), `trades` (`fte`/`ftu` with
 * `[ID, MTS, AMOUNT, RATE, PERIOD]`), `ticker` (16 fields) and `candles` (`trade:1m:fUSD:p30`,
 * `trade:1m:fUSD:a30:p2:p30`). ws-public.ts keeps the sockets, flags and suffixes; a channel here
 * only says what goes out on it: each returned part list is one frame after the channel id.
 */
import { CONF_FLAGS } from "../../src/protocol/index.ts";
import {
  FundingMarket,
  parseCandleFilter,
  type FundingBatch,
  type FundingFeed,
  type FundingExchange,
} from "./funding-market.ts";
import { PRECISIONS, TIMEFRAMES } from "./market.ts";

const LENGTHS = new Set(["1", "25", "100", "250"]);

export interface FundingChannel {
  /** Duplicate-subscription key. */
  readonly key: string;
  /** What the `subscribed` event echoes. */
  readonly fields: Record<string, string>;
  snapshot(flags: number): unknown[][];
  onBatch(b: FundingBatch, flags: number): unknown[][];
  /** Called on the ticker timer: the row when it changed since the last one sent. */
  tick(now: number): unknown[][];
}

export type FundingSubscription = { readonly channel: FundingChannel } | { readonly error: [number, string] };

/**
 * A funding channel for a subscribe request, an error for a funding request that is invalid, or
 * null when the request is not for a listed funding market (the trading side then answers it).
 */
export function fundingSubscription(
  fx: FundingExchange,
  m: Record<string, unknown>,
  symbol: string,
): FundingSubscription | null {
  const channel = m["channel"];
  if (channel === "candles") {
    const key = typeof m["key"] === "string" ? m["key"] : "";
    const parts = /^trade:([0-9]+[mhDWM]):(f[A-Z0-9]+):(.+)$/.exec(key);
    if (!parts) return null;
    const market = fx.markets.get(parts[2] as string);
    const tf = parts[1] as string;
    const filter = parts[3] as string;
    if (!market || !(tf in TIMEFRAMES) || !market.candles(tf, filter)) return { error: [10300, "key: invalid"] };
    return { channel: new CandlesChannel(market, tf, filter, key) };
  }
  const market = fx.markets.get(symbol);
  if (!market) return null;
  if (channel === "book") {
    const prec = typeof m["prec"] === "string" ? m["prec"] : "P0";
    const len = m["len"] === undefined ? "25" : String(m["len"]);
    const freq = typeof m["freq"] === "string" ? m["freq"] : "F0";
    if (prec !== "R0" && !(PRECISIONS as readonly string[]).includes(prec))
      return { error: [10300, "precision: invalid"] };
    if (!LENGTHS.has(len)) return { error: [10300, "length: invalid"] };
    if (freq !== "F0" && freq !== "F1") return { error: [10300, "freq: invalid"] };
    const feed = fx.bookFeed(symbol, prec, Number(len)) as FundingFeed;
    return { channel: new BookChannel(feed, { symbol, prec, freq, len }) };
  }
  if (channel === "trades") return { channel: new TradesChannel(market) };
  if (channel === "ticker") return { channel: new TickerChannel(market) };
  return null;
}

class BookChannel implements FundingChannel {
  readonly key: string;
  constructor(
    readonly feed: FundingFeed,
    readonly fields: Record<string, string>,
  ) {
    this.key = `book|${feed.market.symbol}|${feed.prec}|${feed.len}`;
  }

  snapshot(flags: number): unknown[][] {
    const out: unknown[][] = [[this.feed.snapshot()]];
    if ((flags & CONF_FLAGS.OB_CHECKSUM) !== 0) out.push(["cs", this.feed.mirror.checksum()]);
    return out;
  }

  onBatch(b: FundingBatch, flags: number): unknown[][] {
    const entries = b.bookDiffs.get(this.feed);
    if (!entries || entries.length === 0) return [];
    const out: unknown[][] =
      (flags & CONF_FLAGS.BULK_UPDATES) !== 0 && entries.length > 1 ? [[entries]] : entries.map((e) => [e]);
    if ((flags & CONF_FLAGS.OB_CHECKSUM) !== 0) out.push(["cs", this.feed.mirror.checksum()]);
    return out;
  }

  tick(): unknown[][] {
    return [];
  }
}

class TradesChannel implements FundingChannel {
  readonly key: string;
  readonly fields: Record<string, string>;
  constructor(readonly market: FundingMarket) {
    this.key = `trades|${market.symbol}`;
    this.fields = { symbol: market.symbol };
  }

  snapshot(): unknown[][] {
    return [[this.market.trades.slice(0, 30).map((t) => FundingMarket.tradeWire(t))]];
  }

  onBatch(b: FundingBatch): unknown[][] {
    if (b.market !== this.market) return [];
    const rows = b.trades.map((t) => FundingMarket.tradeWire(t));
    return [...rows.map((r) => ["fte", r]), ...rows.map((r) => ["ftu", r])];
  }

  tick(): unknown[][] {
    return [];
  }
}

class TickerChannel implements FundingChannel {
  readonly key: string;
  readonly fields: Record<string, string>;
  #last = "";
  constructor(readonly market: FundingMarket) {
    this.key = `ticker|${market.symbol}`;
    this.fields = { symbol: market.symbol };
  }

  snapshot(): unknown[][] {
    const row = this.market.ticker(this.market.now());
    this.#last = JSON.stringify(row);
    return [[row]];
  }

  onBatch(): unknown[][] {
    return [];
  }

  tick(now: number): unknown[][] {
    const row = this.market.ticker(now);
    const text = JSON.stringify(row);
    if (text === this.#last) return [];
    this.#last = text;
    return [[row]];
  }
}

class CandlesChannel implements FundingChannel {
  readonly key: string;
  readonly fields: Record<string, string>;
  constructor(
    readonly market: FundingMarket,
    readonly tf: string,
    readonly filter: string,
    key: string,
  ) {
    this.key = `candles|${key}`;
    this.fields = { key };
  }

  #rows(): number[][] {
    return this.market.candles(this.tf, this.filter) ?? [];
  }

  snapshot(): unknown[][] {
    return [[this.#rows().slice(-120).reverse()]];
  }

  onBatch(b: FundingBatch): unknown[][] {
    if (b.market !== this.market || b.trades.length === 0) return [];
    const rows = this.#rows();
    const last = rows[rows.length - 1];
    const range = parseCandleFilter(this.filter);
    const touched = b.trades.some((t) => range && t.period >= range.from && t.period <= range.to);
    return last && touched ? [[last]] : [];
  }

  tick(): unknown[][] {
    return [];
  }
}
