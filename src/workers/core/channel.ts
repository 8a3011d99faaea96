/**
 * A subscribed channel's data. Each kind keeps its state in the shape cheapest to update and to
 * publish: books in typed arrays (src/protocol book engine), trades in a bounded list deduplicated
 * by id, the ticker as its latest row, candles by timestamp.
 */
import {
  CANDLE_FIELDS,
  candleCodec,
  OrderBook,
  PUBLIC_FUNDING_TRADE_FIELDS,
  PUBLIC_TRADE_FIELDS,
  publicTradeCodec,
  TRADES_TRIM_ABOVE,
  TRADES_TRIM_KEEP,
  type BookKind,
} from "../../protocol";
import type { Subscription } from "./subscriptions";

export type ChannelKind = "book" | "trades" | "ticker" | "candles" | "status";

/**
 * A public trade row as received: [ID, MTS, AMOUNT, PRICE] or funding [ID, MTS, AMOUNT, RATE,
 * PERIOD]. Kept as received, read through the codec's field positions: a trade is not decoded
 * into a record, so the trades path allocates nothing per message beyond the parsed frame.
 */
export type TradeRow = readonly number[];

const CANDLE_MTS = CANDLE_FIELDS.mts;

export class TradesList {
  /** Newest first. */
  rows: TradeRow[] = [];
  /** Where the row keeps its fields: the trading and funding layouts differ after AMOUNT. */
  readonly idAt: number;
  readonly mtsAt: number;
  readonly amountAt: number;
  /** The price of a trading trade, the rate of a funding trade. */
  readonly priceAt: number;
  readonly #ids = new Set<number>();

  constructor(funding = false) {
    const f = funding ? PUBLIC_FUNDING_TRADE_FIELDS : PUBLIC_TRADE_FIELDS;
    this.idAt = f.id;
    this.mtsAt = f.mts;
    this.amountAt = f.amount;
    this.priceAt = funding ? PUBLIC_FUNDING_TRADE_FIELDS.rate : PUBLIC_TRADE_FIELDS.price;
  }

  snapshot(rows: unknown[]): boolean {
    this.rows = [];
    this.#ids.clear();
    const id = this.idAt;
    const mts = this.mtsAt;
    let ok = true;
    for (const r of rows) {
      if (isTradeRow(r)) {
        this.rows.push(r);
        this.#ids.add(r[id] as number);
      } else ok = false;
    }
    this.rows.sort((a, b) => (b[mts] as number) - (a[mts] as number) || (b[id] as number) - (a[id] as number));
    return ok;
  }

  /**
   * Adds a trade (`te`) or refreshes it (`tu`): every trade arrives twice, so it is deduplicated by
   * id. docs/product-rules.md#trades-list: when more than 48 are stored the list is trimmed to the newest 24, unless
   * the trade already exists.
   */
  add(row: unknown): boolean {
    if (!isTradeRow(row)) return false;
    const idAt = this.idAt;
    const id = row[idAt] as number;
    if (this.#ids.has(id)) {
      const i = this.rows.findIndex((r) => r[idAt] === id);
      if (i >= 0) this.rows[i] = row;
      return true;
    }
    this.rows.unshift(row);
    this.#ids.add(id);
    if (this.rows.length > TRADES_TRIM_ABOVE) {
      for (const r of this.rows.splice(TRADES_TRIM_KEEP)) this.#ids.delete(r[idAt] as number);
    }
    return true;
  }
}

function isTradeRow(r: unknown): r is TradeRow {
  return Array.isArray(r) && r.length >= publicTradeCodec.length && r.every((v) => typeof v === "number");
}

export class CandleSeries {
  /** Oldest first: [MTS, OPEN, CLOSE, HIGH, LOW, VOLUME]. */
  rows: number[][] = [];

  snapshot(rows: unknown[]): boolean {
    const valid = rows.filter(isCandle);
    this.rows = valid.map((r) => [...r]).sort((a, b) => (a[CANDLE_MTS] as number) - (b[CANDLE_MTS] as number));
    return valid.length === rows.length;
  }

  /** One row that replaces the candle with the same MTS or starts a new one. */
  update(row: unknown): boolean {
    if (!isCandle(row)) return false;
    const mts = row[CANDLE_MTS] as number;
    const last = this.rows[this.rows.length - 1];
    if (last && last[CANDLE_MTS] === mts) this.rows[this.rows.length - 1] = [...row];
    else if (!last || (last[CANDLE_MTS] as number) < mts) this.rows.push([...row]);
    else {
      const i = this.rows.findIndex((r) => (r[CANDLE_MTS] as number) >= mts);
      if (i >= 0 && this.rows[i]?.[CANDLE_MTS] === mts) this.rows[i] = [...row];
      else this.rows.splice(i < 0 ? this.rows.length : i, 0, [...row]);
    }
    return true;
  }
}

function isCandle(r: unknown): r is number[] {
  return (
    Array.isArray(r) &&
    r.length >= candleCodec.length &&
    r.slice(0, candleCodec.length).every((v) => typeof v === "number")
  );
}

export function bookKindOf(symbol: string, prec: string): BookKind {
  const funding = symbol.startsWith("f");
  if (prec === "R0") return funding ? "funding-raw" : "raw";
  return funding ? "funding" : "price";
}

/** How many rows a liquidations channel keeps for its view. */
export const LIQUIDATIONS_HELD = 100;

export class Channel {
  readonly chanId: number;
  readonly sub: Subscription;
  readonly kind: ChannelKind;
  /** False until the first data frame after `subscribed` (the snapshot) has arrived. */
  gotSnapshot = false;
  book: OrderBook | null = null;
  trades: TradesList | null = null;
  candles: CandleSeries | null = null;
  /** The latest ticker or status row(s). */
  latest: unknown = null;
  /**
   * A `liq:` status channel's rows, newest first (at most LIQUIDATIONS_HELD): every liquidation
   * since the snapshot, so a throttled view that skipped a frame still shows its rows.
   */
  readonly liquidations: unknown[] = [];
  /** Messages (data, hb, cs) and data updates seen, and when. */
  messages = 0;
  updates = 0;
  lastMessageAt = 0;
  lastDataAt = 0;
  /** Data version: bumps on every change, for coalesced publishing. */
  version = 0;

  constructor(chanId: number, sub: Subscription) {
    this.chanId = chanId;
    this.sub = sub;
    this.kind = sub.request.channel;
    const req = sub.request;
    if (this.kind === "book") {
      this.book = new OrderBook({ kind: bookKindOf(req.symbol ?? "", req.prec ?? "P0"), len: Number(req.len ?? 25) });
    } else if (this.kind === "trades") this.trades = new TradesList((req.symbol ?? "").startsWith("f"));
    else if (this.kind === "candles") this.candles = new CandleSeries();
  }

  /**
   * Applies channel data. The first data frame after `subscribed` is the snapshot; afterwards an
   * array of arrays is a bulk update (BULK_UPDATES), an array of numbers a single update. Returns the
   * number of entries applied, or -1 when the payload was malformed.
   */
  applyData(payload: unknown[]): number {
    const first = !this.gotSnapshot;
    this.gotSnapshot = true;
    this.version++;
    switch (this.kind) {
      case "book": {
        const book = this.book as OrderBook;
        if (first) return book.applySnapshot(payload) ? 0 : -1;
        if (Array.isArray(payload[0])) {
          let n = 0;
          for (const e of payload) if (book.applyEntry(e)) n++;
          this.updates += n;
          return n === payload.length ? n : -1;
        }
        if (!book.applyEntry(payload)) return -1;
        this.updates++;
        return 1;
      }
      case "trades": {
        const trades = this.trades as TradesList;
        if (first) return trades.snapshot(payload) ? 0 : -1;
        // Some servers send a bare row update; treat it as a trade event.
        return trades.add(payload) ? 1 : -1;
      }
      case "candles": {
        const candles = this.candles as CandleSeries;
        if (first || Array.isArray(payload[0])) return candles.snapshot(payload) ? 0 : -1;
        this.updates++;
        return candles.update(payload) ? 1 : -1;
      }
      case "ticker":
      case "status":
        this.latest = payload;
        if (this.sub.request.key?.startsWith("liq:")) {
          for (const row of payload) if (Array.isArray(row)) this.liquidations.unshift(row);
          if (this.liquidations.length > LIQUIDATIONS_HELD) this.liquidations.length = LIQUIDATIONS_HELD;
        }
        this.updates++;
        return 1;
      default: {
        const never: never = this.kind;
        return never;
      }
    }
  }
}
