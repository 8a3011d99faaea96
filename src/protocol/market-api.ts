/**
 * The market-data worker's API: the one typed contract between the main thread and the worker
 * (one typed bridge per worker, docs/README.md#conventions). The worker implements it with
 * `satisfies`; the UI reaches it only through the bridge in src/ui/market. Control calls go through
 * Comlink; market data comes back as coalesced views in compact typed arrays, at the requested
 * throttle and never once per exchange message.
 */
import type { LedgerCheckResult } from "./ledger-reconcile";
import type { BookPrecision, BookLength } from "./constants";
import type {
  AuthTrade,
  BalanceUpdate,
  FundingCredit,
  FundingInfo,
  FundingLoan,
  FundingOffer,
  FundingTicker,
  FundingTrade,
  MarginInfoBase,
  MarginInfoSymbol,
  Notification,
  Order,
  Position,
  Ticker,
  Wallet,
} from "./records";

/** Socket status (docs/product-rules.md#socket-status). */
export type SocketStatus = "offline" | "connecting" | "online" | "disconnecting" | "unknown";

/** Channel status (docs/product-rules.md#channel-status). */
export type ChannelStatus = "ASKED" | "SUBSCRIBING" | "SUBSCRIBED" | "UNSUBSCRIBING" | "ERROR" | "OUT_OF_SYNC";

export interface ConnectionState {
  readonly status: SocketStatus;
  /** Reconnect attempts since the last successful open. */
  readonly reconnectRetries: number;
  /** Platform status from the welcome info: 1 operative, 0 maintenance, -1 unknown. */
  readonly platform: number;
  /** True between info 20060 and 20061. */
  readonly maintenance: boolean;
  /** Milliseconds since the last message on the socket (-1 before the first). */
  readonly silenceMs: number;
}

/** Per-channel feed health, shown in the book's badge. */
export interface FeedHealth {
  /** Epoch ms of the last data update, 0 before the snapshot. */
  readonly lastUpdateAt: number;
  /** Messages per second over the last publish interval. */
  readonly messagesPerSecond: number;
  readonly resyncs: number;
  readonly checksumsOk: number;
  readonly checksumsFailed: number;
  /** No message on this channel for longer than the heartbeat allows. */
  readonly stale: boolean;
}

export interface BookViewRequest {
  readonly symbol: string;
  readonly prec: BookPrecision | "R0";
  readonly len: BookLength;
  /** Levels per side to publish (≤ len). */
  readonly depth: number;
  /** Minimum ms between two views (0: as fast as the worker publishes, ~60 Hz). */
  readonly throttleMs: number;
}

/** Fields per level in BookView.levels. */
export const BOOK_VIEW_STRIDE = 4;

/**
 * A book view: `levels` holds bids (best first) then asks (best first), each level as
 * [price (or rate), count (or period for raw funding), amount (absolute), cumulative amount].
 */
export interface BookView {
  readonly handle: string;
  readonly symbol: string;
  readonly status: ChannelStatus;
  readonly bids: number;
  readonly asks: number;
  readonly levels: Float64Array;
  /**
   * Funding books only: each level's periods in days, [shortest, longest] per level. An aggregated
   * funding book's levels are grouped by rate (docs/product-rules.md#order-book), so a level spans
   * the periods offered at its rate; a raw book's offer has one period (both the same).
   */
  readonly periods?: Float64Array;
  readonly health: FeedHealth;
  /** Increases with every change of the book. */
  readonly version: number;
  /**
   * When the worker published this view (ms, wall clock): with `health.lastUpdateAt` it splits the
   * book's latency into the worker's throttle hold and the main thread's delivery and paint.
   */
  readonly publishedAt: number;
}

/** Fields per trade in TradesView.rows: [id, mts, amount, price (or rate)]. */
export const TRADE_VIEW_STRIDE = 4;

export interface TradesView {
  readonly handle: string;
  readonly symbol: string;
  readonly status: ChannelStatus;
  /** Newest first. */
  readonly rows: Float64Array;
  readonly count: number;
  /** Funding trades only: each trade's period in days, in the rows' order. */
  readonly periods?: Float64Array;
  readonly health: FeedHealth;
  readonly version: number;
}

export interface TickerView {
  readonly handle: string;
  readonly symbol: string;
  readonly status: ChannelStatus;
  /**
   * The latest ticker, decoded by the symbol's codec (trading or funding: both have bid, ask,
   * lastPrice, dailyChangePerc, high, low, volume); null before the first or when it was malformed.
   */
  readonly ticker: Ticker | FundingTicker | null;
  readonly health: FeedHealth;
  readonly version: number;
}

/** Fields per candle in CandlesView.rows: [mts, open, close, high, low, volume]. */
export const CANDLE_VIEW_STRIDE = 6;

export interface CandlesView {
  readonly handle: string;
  /** The candle key, e.g. `trade:1m:tBTCUSD`. */
  readonly key: string;
  readonly status: ChannelStatus;
  /** Oldest first. */
  readonly rows: Float64Array;
  readonly count: number;
  readonly health: FeedHealth;
  readonly version: number;
}

/** A status channel (`deriv:tBTCF0:USTF0` or `liq:global`): the latest row(s) as received. */
export interface StatusView {
  readonly handle: string;
  readonly key: string;
  readonly status: ChannelStatus;
  readonly payload: unknown;
  /** `liq:` keys: every row received since the snapshot, newest first (a bounded number); else empty. */
  readonly liquidations?: readonly unknown[];
  readonly health: FeedHealth;
  readonly version: number;
}

/** Liquidations history status (docs/product-rules.md#liquidations-history). */
export type HistoryStatus = "NOT_ASKED" | "LOADING" | "READY" | "ERROR";

export interface LiquidationsHistoryView {
  readonly status: HistoryStatus;
  readonly error: string | null;
  /** The time range covered so far (ms), widened as pages arrive; null before the first. */
  readonly range: { readonly start: number; readonly end: number } | null;
  /** Liquidation rows as received (docs/protocol.md#liquidations), newest first. */
  readonly rows: readonly unknown[];
}

export interface MarketConfig {
  readonly wsPublic: string;
  /** Public REST host (api-pub.bitfinex.com on the real exchange). */
  readonly restPublic?: string;
  /** Authenticated REST host (api.bitfinex.com on the real exchange), for the ledger check. */
  readonly restAuth?: string;
  /** The authenticated socket (api.bitfinex.com/ws/2 on the real exchange). */
  readonly wsAuth?: string;
  /** conf flags to ask for (checksums on by default). */
  readonly flags?: number;
  /** Close the socket after this long without subscriptions (close 4004 IDLE_DISCONNECTION). */
  readonly idleMs?: number;
  /** Reconnect when nothing arrived for this long (heartbeats come every 15 s). */
  readonly watchdogMs?: number;
}

/**
 * Stress intensity: `count` synthetic updates every `intervalMs` (the stress intensities,
 * docs/product-rules.md#constants).
 */
export interface StressSetting {
  readonly intervalMs: number;
  readonly count: number;
}

/**
 * Developer flag: faults injected into the public feed's incoming frames. Each rate is the chance,
 * 0 to 1, that a frame suffers it; `delayMs` is how late a delayed frame arrives; `freeze` drops
 * everything (the watchdog must notice); `seed` makes a run repeatable.
 */
export interface FaultSettings {
  readonly drop: number;
  readonly delay: number;
  readonly delayMs: number;
  readonly duplicate: number;
  readonly reorder: number;
  readonly corrupt: number;
  /** The chance that a `subscribed` reply is lost (the subscribe must be retried). */
  readonly loseSubscribed: number;
  readonly freeze: boolean;
  readonly seed: number;
}

/** No fault at all: what the injector starts with, and the base the developer panel edits. */
export const NO_FAULTS: FaultSettings = {
  drop: 0,
  delay: 0,
  delayMs: 0,
  duplicate: 0,
  reorder: 0,
  corrupt: 0,
  loseSubscribed: 0,
  freeze: false,
  seed: 1,
};

/** Account credentials; the API secret stays inside the worker. */
export type AccountCredentials =
  | { readonly kind: "token"; readonly token: string }
  | { readonly kind: "apiKey"; readonly key: string; readonly secret: string };

export interface AuthResult {
  readonly ok: boolean;
  readonly userId: number | null;
  /** 10100 (invalid key or token), 10114 (nonce too small), … */
  readonly code: number | null;
  readonly msg: string;
}

/**
 * The account socket's sign-in as the worker holds it. The worker authenticates again on every
 * reconnect with the credentials it holds, so a refusal can come long after the first sign-in (a
 * network drop, then a token that has died meanwhile); it arrives here, with the account view.
 */
export interface AccountAuthState {
  /**
   * `pending`: connecting, or waiting for the `auth` reply (again after every drop); `ok`: accepted
   * on the socket now open; `failed`: refused — the socket is closed for good and the credentials
   * forgotten (a new `authenticate` starts over); `signed-out`: no credentials held.
   */
  readonly status: "signed-out" | "pending" | "ok" | "failed";
  /** The refusal's code: 10100 (invalid or expired key or token), 10114 (nonce too small), …; null otherwise. */
  readonly code: number | null;
  /** The refusal's message as the exchange sent it ("" otherwise). */
  readonly msg: string;
  /** `auth` replies received since this sign-in began: 1 after the first, one more per reconnect. */
  readonly replies: number;
  /**
   * Whether the accepted credentials may write orders, from the auth reply's `caps`
   * (`orders.write`); absent when the reply named no capabilities (a token session on the real
   * exchange sends them; a read-only API key says write 0).
   */
  readonly canTrade?: boolean;
}

/** The account as reconciled from channel 0 (low-rate: plain records, sent on change). */
export interface AccountView {
  readonly orders: readonly Order[];
  readonly history: Readonly<Record<string, readonly Order[]>>;
  readonly positions: readonly Position[];
  readonly wallets: readonly Wallet[];
  readonly balance: BalanceUpdate | null;
  readonly fundingOffers: readonly FundingOffer[];
  readonly credits: readonly FundingCredit[];
  readonly loans: readonly FundingLoan[];
  readonly trades: readonly AuthTrade[];
  readonly fundingTrades: readonly FundingTrade[];
  readonly notifications: readonly Notification[];
  readonly marginBase: MarginInfoBase | null;
  readonly marginSymbols: Readonly<Record<string, MarginInfoSymbol>>;
  readonly fundingInfo: Readonly<Record<string, FundingInfo>>;
  /**
   * The socket's sign-in (its changes bump `version` too). The worker always sends it; optional so
   * that views built by hand (fixtures, component tests) need not.
   */
  readonly auth?: AccountAuthState;
  readonly version: number;
}

/**
 * An order as the order form submits it (the WS `on` input / `w/order/submit` fields). Amounts and
 * prices travel as decimal strings so nothing is lost to binary rounding; amount > 0 buys.
 */
export interface OrderRequest {
  /** Exchange type, e.g. `EXCHANGE LIMIT`, `EXCHANGE MARKET`, `LIMIT` (margin), `EXCHANGE STOP LIMIT`. */
  readonly type: string;
  /** `tBTCUSD`. */
  readonly symbol: string;
  readonly amount: string;
  readonly price?: string;
  /** STOP LIMIT: the limit price once triggered. */
  readonly priceAuxLimit?: string;
  /** TRAILING STOP: the trailing distance. */
  readonly priceTrailing?: string;
  /** OCO: the stop price of the second leg (flag OCO 16384 set). */
  readonly priceOcoStop?: string;
  /** Order flags (hidden 64, close 512, reduce-only 1024, post-only 4096, OCO 16384, no var rates 524288). */
  readonly flags?: number;
  /** Time-in-force: a `YYYY-MM-DD HH:mm:ss` UTC date after which the order is cancelled. */
  readonly tif?: string;
  /** Leverage for derivatives (1–100). */
  readonly lev?: number;
}

/** An order change (the WS `ou` input): same id, new price/amount/flags. */
export interface OrderUpdate {
  readonly id: number;
  readonly price?: string;
  /** The new amount (signed, as for a new order). */
  readonly amount?: string;
  readonly priceAuxLimit?: string;
  readonly priceTrailing?: string;
  readonly flags?: number;
}

/**
 * The exchange's answer to an order input: the `on-req`/`oc-req`/`ou-req`/`oc_multi-req`
 * notification (status SUCCESS, ERROR or FAILURE and its text), or a local failure (no account
 * socket, timeout) with status ERROR and `code` set.
 */
export interface OrderAck {
  readonly ok: boolean;
  /** SUCCESS, ERROR, FAILURE (exchange), or LOCAL (never reached the exchange). */
  readonly status: string;
  /** The exchange's message (e.g. "Invalid order: not enough exchange balance…"), or a local reason. */
  readonly text: string;
  /** The order id(s) the exchange assigned or touched. */
  readonly orderIds: readonly number[];
  /** Local failure codes: "not-authenticated", "timeout", "socket-closed"; null otherwise. */
  readonly localError: "not-authenticated" | "timeout" | "socket-closed" | null;
}

/**
 * The worker's API as the worker implements it: what it answers at once is synchronous here. The
 * main thread holds it as Comlink's `Remote<MarketWorkerApi>`, where every call returns a Promise.
 */
export interface MarketWorkerApi {
  configure(config: MarketConfig): void;
  subscribeBook(request: BookViewRequest, onView: (view: BookView) => void): string;
  subscribeTrades(symbol: string, throttleMs: number, onView: (view: TradesView) => void): string;
  subscribeTicker(symbol: string, onView: (view: TickerView) => void): string;
  subscribeCandles(key: string, throttleMs: number, onView: (view: CandlesView) => void): string;
  subscribeStatus(key: string, onView: (view: StatusView) => void): string;
  /** Loads a page of liquidations history (REST liquidations/hist) ending at `end` (ms, 0: now). */
  loadLiquidations(end: number, onView: (view: LiquidationsHistoryView) => void): Promise<void>;
  unsubscribe(handle: string): void;
  onConnection(listener: (state: ConnectionState) => void): void;
  /**
   * Every HTTP 429 the worker's REST calls got (its `Retry-After` header and body), for the main
   * thread's one rate-limit notice; the worker itself waits and retries its reads.
   */
  onRateLimited(listener: (retryAfter: string | null, body: unknown) => void): void;
  /** Opens the account socket and authenticates; resolves with the server's reply. */
  authenticate(credentials: AccountCredentials): Promise<AuthResult>;
  /**
   * Hands the signed-in account socket new credentials (a renewed token) for its next `auth`,
   * without reconnecting: the open socket stays signed in as it is, and every later reconnect
   * authenticates with these. Resolves false when no sign-in holds credentials of the same kind
   * (none, or refused): then call `authenticate`.
   */
  swapCredentials(credentials: AccountCredentials): boolean;
  /** Closes the account socket and forgets the credentials and the account. */
  signOut(): void;
  subscribeAccount(onView: (view: AccountView) => void): string;
  /** Places an order on the account socket (`on`); resolves with the exchange's notification. */
  submitOrder(order: OrderRequest): Promise<OrderAck>;
  /** Changes an open order (`ou`). */
  updateOrder(update: OrderUpdate): Promise<OrderAck>;
  /** Cancels one order (`oc`). */
  cancelOrder(id: number): Promise<OrderAck>;
  /** Cancels several orders (`oc_multi` by ids), or every open order on `symbol`, or all (`all: 1`). */
  cancelOrders(
    target: { readonly ids: readonly number[] } | { readonly symbol: string } | { readonly all: true },
  ): Promise<OrderAck>;
  /**
   * Checks that every wallet's ledger chains to its balance, from the ledger rows (read with the
   * held credentials) and the account socket's wallets (docs/product-rules.md#reports).
   */
  checkLedgers(): Promise<LedgerCheckResult>;
  /** Developer flag: synthetic updates on the stress book (symbol tSTRESS), null to stop. */
  setStress(setting: StressSetting | null): void;
  /** Developer flag: faults on the public feed's incoming frames, null for none. */
  setFaults(settings: FaultSettings | null): void;
  dispose(): void;
}
