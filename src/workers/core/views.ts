/**
 * Builds the compact views the main thread receives: one Float64Array per book or trades view
 * (transferred, not copied), only the depth asked for, cumulative totals precomputed for the depth
 * bars. Nothing here runs per exchange message — only when a view is published.
 */
import {
  BOOK_VIEW_STRIDE,
  CANDLE_VIEW_STRIDE,
  FUNDING_GROUP_STRIDE,
  groupFundingByRate,
  PUBLIC_FUNDING_TRADE_FIELDS,
  PUBLIC_TRADE_FIELDS,
  TRADE_VIEW_STRIDE,
  type FeedHealth,
  type OrderBook,
} from "../../protocol";
import type { Channel } from "./channel";
import type { Subscription } from "./subscriptions";

export interface PackedBook {
  readonly levels: Float64Array;
  readonly bids: number;
  readonly asks: number;
  /** Funding books: [shortest, longest] period per level (BookView.periods). */
  readonly periods?: Float64Array;
}

export function packBook(book: OrderBook, depth: number): PackedBook {
  if (book.kind === "funding") return packFundingGroups(book, depth);
  if (book.kind === "funding-raw") return { ...packLevels(book, depth), periods: rawPeriods(book, depth) };
  return packLevels(book, depth);
}

/**
 * An aggregated funding book as the grouped book (docs/product-rules.md#order-book): its (rate,
 * period) levels summed per rate, each group with its period range. The checksum stays on the
 * levels as received (the worker's OrderBook); only what is shown is grouped.
 */
function packFundingGroups(book: OrderBook, depth: number): PackedBook {
  const sides = [groupFundingByRate(book.bids, depth), groupFundingByRate(book.asks, depth)] as const;
  const nb = sides[0].length / FUNDING_GROUP_STRIDE;
  const na = sides[1].length / FUNDING_GROUP_STRIDE;
  const levels = new Float64Array((nb + na) * BOOK_VIEW_STRIDE);
  const periods = new Float64Array((nb + na) * 2);
  let o = 0;
  let p = 0;
  for (const groups of sides) {
    let cum = 0;
    for (let g = 0; g < groups.length; g += FUNDING_GROUP_STRIDE) {
      const amount = Math.abs(groups[g + 2] as number);
      cum += amount;
      levels[o++] = groups[g] as number;
      levels[o++] = groups[g + 1] as number;
      levels[o++] = amount;
      levels[o++] = cum;
      periods[p++] = groups[g + 3] as number;
      periods[p++] = groups[g + 4] as number;
    }
  }
  return { levels, bids: nb, asks: na, periods };
}

/** A raw funding book's offers each have one period (kept in the side's aux column). */
function rawPeriods(book: OrderBook, depth: number): Float64Array {
  const nb = Math.min(depth, book.bids.size);
  const na = Math.min(depth, book.asks.size);
  const periods = new Float64Array((nb + na) * 2);
  let p = 0;
  for (const [side, n] of [
    [book.bids, nb],
    [book.asks, na],
  ] as const) {
    for (let i = 0; i < n; i++) {
      periods[p++] = side.aux[i] as number;
      periods[p++] = side.aux[i] as number;
    }
  }
  return periods;
}

function packLevels(book: OrderBook, depth: number): PackedBook {
  const b = book.bids;
  const a = book.asks;
  const nb = Math.min(depth, b.size);
  const na = Math.min(depth, a.size);
  const raw = book.kind === "raw";
  const levels = new Float64Array((nb + na) * BOOK_VIEW_STRIDE);
  let o = 0;
  let cum = 0;
  for (let i = 0; i < nb; i++) {
    const amount = Math.abs(b.amount[i] as number);
    cum += amount;
    levels[o++] = b.k1[i] as number;
    levels[o++] = raw ? 1 : (b.aux[i] as number);
    levels[o++] = amount;
    levels[o++] = cum;
  }
  cum = 0;
  for (let i = 0; i < na; i++) {
    const amount = Math.abs(a.amount[i] as number);
    cum += amount;
    levels[o++] = a.k1[i] as number;
    levels[o++] = raw ? 1 : (a.aux[i] as number);
    levels[o++] = amount;
    levels[o++] = cum;
  }
  return { levels, bids: nb, asks: na };
}

/** The trades view keeps the public trade row's layout: [id, mts, amount, price (or rate)]. */
const VIEW = PUBLIC_TRADE_FIELDS;

export function packTrades(
  channel: Channel,
  limit: number,
): { rows: Float64Array; count: number; periods?: Float64Array } {
  const trades = channel.trades;
  if (!trades) return { rows: new Float64Array(0), count: 0 };
  const list = trades.rows;
  const n = Math.min(limit, list.length);
  const rows = new Float64Array(n * TRADE_VIEW_STRIDE);
  // A funding trade's period has no place in the trading layout: it travels beside the rows.
  const funding = channel.sub.request.symbol?.startsWith("f") === true;
  const periods = funding ? new Float64Array(n) : undefined;
  for (let i = 0; i < n; i++) {
    const r = list[i] as readonly number[];
    const o = i * TRADE_VIEW_STRIDE;
    rows[o + VIEW.id] = r[trades.idAt] as number;
    rows[o + VIEW.mts] = r[trades.mtsAt] as number;
    rows[o + VIEW.amount] = r[trades.amountAt] as number;
    rows[o + VIEW.price] = r[trades.priceAt] as number;
    if (periods) periods[i] = r[PUBLIC_FUNDING_TRADE_FIELDS.period] as number;
  }
  return periods ? { rows, count: n, periods } : { rows, count: n };
}

export function packCandles(channel: Channel): { rows: Float64Array; count: number } {
  const list = channel.candles?.rows ?? [];
  const rows = new Float64Array(list.length * CANDLE_VIEW_STRIDE);
  for (let i = 0; i < list.length; i++) {
    const r = list[i] as number[];
    for (let k = 0; k < CANDLE_VIEW_STRIDE; k++) rows[i * CANDLE_VIEW_STRIDE + k] = r[k] as number;
  }
  return { rows, count: list.length };
}

export function healthOf(
  channel: Channel | undefined,
  now: number,
  messagesPerSecond: number,
  staleMs: number,
  sub: Subscription | undefined = channel?.sub,
): FeedHealth {
  // Checksum counts live on the subscription: a mismatch replaces the channel, and the badge must
  // still show the failure it recovered from.
  const checks = {
    resyncs: sub?.resyncs ?? 0,
    checksumsOk: sub?.checksumsOk ?? 0,
    checksumsFailed: sub?.checksumsFailed ?? 0,
  };
  if (!channel) return { lastUpdateAt: 0, messagesPerSecond: 0, ...checks, stale: false };
  return {
    lastUpdateAt: channel.lastDataAt,
    messagesPerSecond: Math.max(0, messagesPerSecond),
    ...checks,
    stale: channel.lastMessageAt > 0 && now - channel.lastMessageAt > staleMs,
  };
}
