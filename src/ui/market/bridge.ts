/**
 * The one bridge to the market-data worker (the only `new Worker` of the app): it creates the worker, wraps it with
 * Comlink, turns callbacks into proxies, cancels subscriptions through AbortSignal and tears
 * everything down. The main thread imports only the worker's API types.
 */
import { proxy, releaseProxy, wrap, type Remote } from "comlink";
import type {
  AccountCredentials,
  AccountView,
  AuthResult,
  BookView,
  BookViewRequest,
  CandlesView,
  LiquidationsHistoryView,
  StatusView,
  ConnectionState,
  MarketConfig,
  MarketWorkerApi,
  OrderAck,
  OrderRequest,
  OrderUpdate,
  FaultSettings,
  LedgerCheckResult,
  StressSetting,
  TickerView,
  TradesView,
} from "../../protocol";

export interface MarketBridge {
  configure(config: MarketConfig): Promise<void>;
  /** Streams views of a book until `signal` aborts. */
  book(request: BookViewRequest, onView: (view: BookView) => void, signal: AbortSignal): Promise<void>;
  trades(symbol: string, throttleMs: number, onView: (view: TradesView) => void, signal: AbortSignal): Promise<void>;
  ticker(symbol: string, onView: (view: TickerView) => void, signal: AbortSignal): Promise<void>;
  candles(key: string, throttleMs: number, onView: (view: CandlesView) => void, signal: AbortSignal): Promise<void>;
  status(key: string, onView: (view: StatusView) => void, signal: AbortSignal): Promise<void>;
  liquidations(end: number, onView: (view: LiquidationsHistoryView) => void): Promise<void>;
  connection(listener: (state: ConnectionState) => void): Promise<void>;
  /** Every 429 the worker's REST got (`Retry-After`, body): the app-wide notice's other source. */
  rateLimits(listener: (retryAfter: string | null, body: unknown) => void): Promise<void>;
  stress(setting: StressSetting | null): Promise<void>;
  /** Developer flag: faults injected into the public feed (null: none). */
  faults(settings: FaultSettings | null): Promise<void>;
  /** Authenticates the account socket; the secret is handed to the worker and kept only there. */
  authenticate(credentials: AccountCredentials): Promise<AuthResult>;
  /** New credentials (a renewed token) for the account socket's next auth, without reconnecting. */
  swapCredentials(credentials: AccountCredentials): Promise<boolean>;
  signOut(): Promise<void>;
  account(onView: (view: AccountView) => void, signal: AbortSignal): Promise<void>;
  submitOrder(order: OrderRequest): Promise<OrderAck>;
  updateOrder(update: OrderUpdate): Promise<OrderAck>;
  cancelOrder(id: number): Promise<OrderAck>;
  cancelOrders(target: Parameters<MarketWorkerApi["cancelOrders"]>[0]): Promise<OrderAck>;
  /** The worker's ledger check: every wallet's ledger rows against its balance on the socket. */
  checkLedgers(): Promise<LedgerCheckResult>;
  dispose(): void;
}

export function createMarketBridge(): MarketBridge {
  const worker = new Worker(new URL("../../workers/market.worker.ts", import.meta.url), {
    type: "module",
    name: "market-data",
  });
  const api: Remote<MarketWorkerApi> = wrap<MarketWorkerApi>(worker);
  let disposed = false;

  async function stream(start: () => Promise<string>, signal: AbortSignal): Promise<void> {
    if (signal.aborted || disposed) return;
    const handle = await start();
    if (signal.aborted) {
      await api.unsubscribe(handle);
      return;
    }
    signal.addEventListener("abort", () => void (disposed ? undefined : api.unsubscribe(handle)), { once: true });
  }

  return {
    configure: (config) => api.configure(config),
    book: (request, onView, signal) => stream(() => api.subscribeBook(request, proxy(onView)), signal),
    trades: (symbol, throttleMs, onView, signal) =>
      stream(() => api.subscribeTrades(symbol, throttleMs, proxy(onView)), signal),
    ticker: (symbol, onView, signal) => stream(() => api.subscribeTicker(symbol, proxy(onView)), signal),
    candles: (key, throttleMs, onView, signal) =>
      stream(() => api.subscribeCandles(key, throttleMs, proxy(onView)), signal),
    status: (key, onView, signal) => stream(() => api.subscribeStatus(key, proxy(onView)), signal),
    liquidations: (end, onView) => api.loadLiquidations(end, proxy(onView)),
    connection: (listener) => api.onConnection(proxy(listener)),
    rateLimits: (listener) => api.onRateLimited(proxy(listener)),
    stress: (setting) => api.setStress(setting),
    faults: (settings) => api.setFaults(settings),
    authenticate: (credentials) => api.authenticate(credentials),
    swapCredentials: (credentials) => api.swapCredentials(credentials),
    signOut: () => api.signOut(),
    account: (onView, signal) => stream(() => api.subscribeAccount(proxy(onView)), signal),
    submitOrder: (order) => api.submitOrder(order),
    updateOrder: (update) => api.updateOrder(update),
    cancelOrder: (id) => api.cancelOrder(id),
    cancelOrders: (target) => api.cancelOrders(target),
    checkLedgers: () => api.checkLedgers(),
    dispose() {
      if (disposed) return;
      disposed = true;
      void api.dispose().finally(() => {
        api[releaseProxy]();
        worker.terminate();
      });
    },
  };
}
