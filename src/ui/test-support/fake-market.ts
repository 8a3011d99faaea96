/**
 * A synthetic market source for component tests and demos of the book, depth and trades widgets:
 * it records every subscription (request and abort signal), answers each with a generated view, and
 * lets a test push further views. Provide it with <MarketSourceContext value={fake}>. Not used by
 * the app itself.
 */
import {
  BOOK_VIEW_STRIDE,
  publicTradeCodec,
  TRADE_VIEW_STRIDE,
  type BookView,
  type BookViewRequest,
  type ChannelStatus,
  type FeedHealth,
  type TradesView,
} from "../../protocol";
import type { MarketSource } from "../desk/widgets/book/market-source";

export interface BookSubscription {
  readonly request: BookViewRequest;
  readonly onView: (view: BookView) => void;
  readonly signal: AbortSignal;
}

export interface TradesSubscription {
  readonly symbol: string;
  readonly throttleMs: number;
  readonly onView: (view: TradesView) => void;
  readonly signal: AbortSignal;
}

export function feedHealth(overrides: Partial<FeedHealth> = {}): FeedHealth {
  return {
    lastUpdateAt: Date.now(),
    messagesPerSecond: 12,
    resyncs: 0,
    checksumsOk: 40,
    checksumsFailed: 0,
    stale: false,
    ...overrides,
  };
}

export interface SyntheticBookOptions {
  readonly mid?: number;
  /** Levels per side (default: the request's depth). */
  readonly levels?: number;
  readonly status?: ChannelStatus;
  readonly health?: Partial<FeedHealth>;
  readonly version?: number;
  /** Varies the amounts, so two versions of a book differ. */
  readonly seed?: number;
}

/** The price step of a precision at `mid` (P0 at 50 000: 1; P1: 10 …), as the exchange groups. */
export function precisionStep(prec: string, mid: number): number {
  const digits = 5 - Math.max(0, Math.min(4, Number(prec.slice(1)) || 0));
  return 10 ** (Math.floor(Math.log10(mid)) - digits + 1);
}

/** A book view for a request: `levels` bids below and asks above `mid`, one price step apart. */
export function syntheticBook(request: BookViewRequest, options: SyntheticBookOptions = {}): BookView {
  const mid = options.mid ?? 50_000;
  const n = options.levels ?? request.depth;
  const step = precisionStep(request.prec, mid);
  const seed = options.seed ?? 0;
  const levels = new Float64Array(n * 2 * BOOK_VIEW_STRIDE);
  for (const [side, base] of [
    [-1, 0],
    [1, n],
  ] as const) {
    let cumulative = 0;
    for (let i = 0; i < n; i++) {
      const o = (base + i) * BOOK_VIEW_STRIDE;
      const amount = 0.5 + ((i * 7 + seed + (side > 0 ? 3 : 0)) % 11) * 0.25;
      cumulative += amount;
      levels[o] = Math.round((mid + side * step * (i + 1)) / step) * step;
      levels[o + 1] = 1 + ((i + seed) % 6);
      levels[o + 2] = amount;
      levels[o + 3] = cumulative;
    }
  }
  return {
    handle: `fake-book-${request.symbol}-${request.prec}`,
    symbol: request.symbol,
    status: options.status ?? "SUBSCRIBED",
    bids: n,
    asks: n,
    levels,
    health: feedHealth(options.health),
    version: options.version ?? 1,
    publishedAt: Date.now(),
  };
}

export interface SyntheticTrade {
  readonly id: number;
  readonly mts: number;
  readonly amount: number;
  readonly price: number;
}

export function syntheticTradesView(symbol: string, trades: readonly SyntheticTrade[], version = 1): TradesView {
  const rows = new Float64Array(trades.length * TRADE_VIEW_STRIDE);
  trades.forEach((t, i) => rows.set(publicTradeCodec.encode(t) as number[], i * TRADE_VIEW_STRIDE));
  return {
    handle: `fake-trades-${symbol}`,
    symbol,
    status: "SUBSCRIBED",
    rows,
    count: trades.length,
    health: feedHealth(),
    version,
  };
}

/** `n` trades newest first, alternating buys and sells around `mid`, one second apart. */
export function syntheticTrades(n: number, mid = 50_000, now = Date.UTC(2026, 0, 2, 12, 30, 0)): SyntheticTrade[] {
  const out: SyntheticTrade[] = [];
  for (let i = 0; i < n; i++) {
    const buy = i % 3 !== 1;
    out.push({
      id: 1000 + n - i,
      mts: now - i * 1000,
      amount: (buy ? 1 : -1) * (0.01 + (i % 9) * 0.05),
      price: mid + ((i % 7) - 3),
    });
  }
  return out;
}

export class FakeMarket implements MarketSource {
  readonly bookSubscriptions: BookSubscription[] = [];
  readonly tradesSubscriptions: TradesSubscription[] = [];
  /** How each new book subscription is answered (null: not at all). */
  bookAnswer: (request: BookViewRequest) => BookView | null = (request) => syntheticBook(request);
  tradesAnswer: (symbol: string) => TradesView | null = (symbol) => syntheticTradesView(symbol, syntheticTrades(40));

  book(request: BookViewRequest, onView: (view: BookView) => void, signal: AbortSignal): Promise<void> {
    this.bookSubscriptions.push({ request, onView, signal });
    const view = this.bookAnswer(request);
    if (view) queueMicrotask(() => (signal.aborted ? undefined : onView(view)));
    return Promise.resolve();
  }

  trades(symbol: string, throttleMs: number, onView: (view: TradesView) => void, signal: AbortSignal): Promise<void> {
    this.tradesSubscriptions.push({ symbol, throttleMs, onView, signal });
    const view = this.tradesAnswer(symbol);
    if (view) queueMicrotask(() => (signal.aborted ? undefined : onView(view)));
    return Promise.resolve();
  }

  /** Book subscriptions not aborted yet. */
  liveBooks(): BookSubscription[] {
    return this.bookSubscriptions.filter((s) => !s.signal.aborted);
  }

  liveTrades(): TradesSubscription[] {
    return this.tradesSubscriptions.filter((s) => !s.signal.aborted);
  }

  /** Sends a view, made per live subscription, to every live book subscription. */
  pushBook(make: (request: BookViewRequest) => BookView): void {
    for (const s of this.liveBooks()) s.onView(make(s.request));
  }

  pushTrades(view: TradesView): void {
    for (const s of this.liveTrades()) s.onView(view);
  }
}
