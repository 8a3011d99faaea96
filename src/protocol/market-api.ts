/**
 * The market-data worker's API: the one typed contract between the main thread and the worker
 * (HOUSE-STYLE 3). The worker implements it with `satisfies`; the UI reaches it only through the
 * bridge in src/ui/market. Control calls go through Comlink; market data comes back as coalesced
 * views in compact typed arrays, at the requested throttle and never once per exchange message.
 */
import type { BookPrecision, BookLength } from "./constants";
import type {
  AuthTrade,
  BalanceUpdate,
  FundingCredit,
  FundingInfo,
  FundingLoan,
  FundingOffer,
  FundingTrade,
  MarginInfoBase,
  MarginInfoSymbol,
  Notification,
  Order,
  Position,
  Wallet,
} from "./records";

/** Socket status (SPEC section 4). */
export type SocketStatus = "offline" | "connecting" | "online" | "disconnecting" | "unknown";

/** Channel status (SPEC section 4). */
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
  readonly health: FeedHealth;
  /** Increases with every change of the book. */
  readonly version: number;
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
  readonly health: FeedHealth;
  readonly version: number;
}

export interface TickerView {
  readonly handle: string;
  readonly symbol: string;
  readonly status: ChannelStatus;
  /** The ticker row as received (trading: 10 fields, funding: 16). */
  readonly values: readonly number[];
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
  readonly health: FeedHealth;
  readonly version: number;
}

/** Liquidations history status (SPEC section 4). */
export type HistoryStatus = "NOT_ASKED" | "LOADING" | "READY" | "ERROR";

export interface LiquidationsHistoryView {
  readonly status: HistoryStatus;
  readonly error: string | null;
  /** The time range covered so far (ms), widened as pages arrive; null before the first. */
  readonly range: { readonly start: number; readonly end: number } | null;
  /** Liquidation rows as received (PROTOCOL.md 2.6), newest first. */
  readonly rows: readonly unknown[];
}

export interface MarketConfig {
  readonly wsPublic: string;
  /** Public REST host (api-pub.bitfinex.com on the real exchange). */
  readonly restPublic?: string;
  /** The authenticated socket (api.bitfinex.com/ws/2 on the real exchange). */
  readonly wsAuth?: string;
  /** conf flags to ask for (checksums on by default). */
  readonly flags?: number;
  /** Close the socket after this long without subscriptions (close 4004 IDLE_DISCONNECTION). */
  readonly idleMs?: number;
  /** Reconnect when nothing arrived for this long (heartbeats come every 15 s). */
  readonly watchdogMs?: number;
}

/** Stress intensity: `count` synthetic updates every `intervalMs` (SPEC section 9). */
export interface StressSetting {
  readonly intervalMs: number;
  readonly count: number;
}

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
  readonly version: number;
}

export interface MarketWorkerApi {
  configure(config: MarketConfig): Promise<void>;
  subscribeBook(request: BookViewRequest, onView: (view: BookView) => void): Promise<string>;
  subscribeTrades(symbol: string, throttleMs: number, onView: (view: TradesView) => void): Promise<string>;
  subscribeTicker(symbol: string, onView: (view: TickerView) => void): Promise<string>;
  subscribeCandles(key: string, throttleMs: number, onView: (view: CandlesView) => void): Promise<string>;
  subscribeStatus(key: string, onView: (view: StatusView) => void): Promise<string>;
  /** Loads a page of liquidations history (REST liquidations/hist) ending at `end` (ms, 0: now). */
  loadLiquidations(end: number, onView: (view: LiquidationsHistoryView) => void): Promise<void>;
  unsubscribe(handle: string): Promise<void>;
  onConnection(listener: (state: ConnectionState) => void): Promise<void>;
  /** Opens the account socket and authenticates; resolves with the server's reply. */
  authenticate(credentials: AccountCredentials): Promise<AuthResult>;
  /** Closes the account socket and forgets the credentials and the account. */
  signOut(): Promise<void>;
  subscribeAccount(onView: (view: AccountView) => void): Promise<string>;
  /** Developer flag: synthetic updates on the stress book (symbol tSTRESS), null to stop. */
  setStress(setting: StressSetting | null): Promise<void>;
  dispose(): Promise<void>;
}
