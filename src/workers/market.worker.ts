/**
 * The market-data worker: holds the public socket, the books, checksums, throttling and the stress
 * source, and publishes coalesced views to the main thread through Comlink: calls come in over the
 * one typed bridge, data goes out as coalesced frames, never one message per exchange event.
 * Views go out at most every 16 ms (there are no animation frames in a worker) and at each view's
 * own throttle, only when something changed — plus a health beat every second so the feed badge
 * never shows a stale "live".
 */
import { expose, transfer } from "comlink";
import {
  CONF_FLAGS,
  fundingTickerCodec,
  INFO_CODES,
  tickerCodec,
  type AccountCredentials,
  type AccountView,
  type AuthResult,
  type BookView,
  type BookViewRequest,
  type CandlesView,
  type LedgerCheckResult,
  type LiquidationsHistoryView,
  type StatusView,
  type ConnectionState,
  type MarketConfig,
  type MarketWorkerApi,
  type OrderAck,
  type OrderRequest,
  type OrderUpdate,
  type FaultSettings,
  type StressSetting,
  type TickerView,
  type TradesView,
} from "../protocol";
import {
  AccountAuth,
  AccountCore,
  Connection,
  FeedCore,
  OrderDesk,
  type CancelTarget,
  type HmacCrypto,
  healthOf,
  LiquidationsHistory,
  checkLedgers,
  restGet,
  type WorkerRest,
  packBook,
  packCandles,
  packTrades,
  STRESS_SYMBOL,
  StressSource,
  FaultInjector,
  faultySocket,
  injectsFaults,
  subscriptionKey,
  type Channel,
  type SocketLike,
  type SubscribeRequest,
} from "./core";
import { workerScheduler } from "./scheduler";

const PUBLISH_TICK_MS = 16;
const HEALTH_BEAT_MS = 1000;
const STALE_MS = 20_000;
const TRADES_LIMIT = 100;

type ViewKind = "book" | "trades" | "ticker" | "candles" | "status";

interface ViewEntry {
  readonly handle: string;
  readonly kind: ViewKind;
  readonly key: string;
  readonly symbol: string;
  readonly core: FeedCore;
  readonly depth: number;
  readonly throttleMs: number;
  readonly send: (ch: Channel | undefined, entry: ViewEntry, now: number, rate: number) => void;
  lastVersion: number;
  lastStatus: string;
  lastSentAt: number;
  lastMessages: number;
  lastMessagesAt: number;
}

let config: MarketConfig | null = null;
let connection: Connection | null = null;
const stressCore = new FeedCore({ send: () => {}, now: () => workerScheduler.now() });
const stress = new StressSource(stressCore, workerScheduler);
const faults = new FaultInjector(workerScheduler);
const views = new Map<string, ViewEntry>();
const connectionListeners: ((s: ConnectionState) => void)[] = [];
const rateLimitListeners: ((retryAfter: string | null, body: unknown) => void)[] = [];
/** The worker's REST: a 429 goes to the main thread's one notice, reads wait and retry (core/rest.ts). */
const rest: WorkerRest = {
  fetch: (url, init) => fetch(url, init),
  timers: workerScheduler,
  onRateLimited: (retryAfter, body) => {
    for (const l of rateLimitListeners) void l(retryAfter, body);
  },
};
const account = new AccountCore();
let liquidations: LiquidationsHistory | null = null;
let authConnection: Connection | null = null;
/** The account socket's credentials and sign-in; its state goes out with the account view. */
const accountAuth = new AccountAuth({
  crypto: crypto.subtle as unknown as HmacCrypto,
  now: () => workerScheduler.now(),
  send: (msg) => authConnection?.send(msg) ?? false,
  stop: () => authConnection?.stop(),
  reconnect: () => {
    authConnection?.stop();
    authConnection?.start();
  },
  onState: (state) => account.setAuth(state),
});
const orders = new OrderDesk({
  timers: workerScheduler,
  send: (input) => authConnection?.send(input) ?? false,
  authenticated: () => accountAuth.ready && authConnection !== null,
  openOrderIds: (symbol) => {
    const ids: number[] = [];
    for (const o of account.orders.values()) if (symbol === null || o.symbol === symbol) ids.push(o.id);
    return ids;
  },
});
const accountViews = new Map<string, { send: (v: AccountView) => void; lastVersion: number; lastSentAt: number }>();
const ACCOUNT_THROTTLE_MS = 100;
let platform = -1;
let maintenance = false;
let nextHandle = 1;
let cancelTick: (() => void) | null = null;

function connectionState(): ConnectionState {
  const c = connection;
  return {
    status: c?.status ?? "offline",
    reconnectRetries: c?.retries ?? 0,
    platform,
    maintenance,
    silenceMs: c && c.lastMessageAt >= 0 ? workerScheduler.now() - c.lastMessageAt : -1,
  };
}

function notifyConnection(): void {
  const state = connectionState();
  for (const l of connectionListeners) void l(state);
}

function ensureConnection(): Connection {
  if (connection) return connection;
  if (!config) throw new Error("configure() first");
  const cfg = config;
  connection = new Connection({
    url: cfg.wsPublic,
    // Every public socket passes through the fault injector; with no faults set it only forwards.
    createSocket: (url) => faultySocket(new WebSocket(url) as unknown as SocketLike, faults),
    timers: workerScheduler,
    flags: cfg.flags ?? CONF_FLAGS.OB_CHECKSUM,
    ...(cfg.watchdogMs !== undefined ? { watchdogMs: cfg.watchdogMs } : {}),
    ...(cfg.idleMs !== undefined ? { idleMs: cfg.idleMs } : {}),
    onSocketStatus: () => notifyConnection(),
    onPlatform: (status) => {
      // The welcome's status is the truth at (re)connect: a maintenance that ended while the
      // socket was away leaves no 20061 to hear.
      platform = status;
      maintenance = status === 0;
      notifyConnection();
    },
    onInfo: (code) => {
      if (code === INFO_CODES.MAINTENANCE_START) maintenance = true;
      if (code === INFO_CODES.MAINTENANCE_END) maintenance = false;
      if (code === INFO_CODES.MAINTENANCE_START || code === INFO_CODES.MAINTENANCE_END) platform = maintenance ? 0 : 1;
      notifyConnection();
    },
  });
  return connection;
}

function coreFor(symbol: string): FeedCore {
  return symbol === STRESS_SYMBOL ? stressCore : ensureConnection().core;
}

function channelOf(entry: ViewEntry): Channel | undefined {
  const sub = entry.core.subs.get(entry.key);
  return sub && sub.chanId >= 0 ? entry.core.channels.get(sub.chanId) : undefined;
}

function tick(): void {
  const now = workerScheduler.now();
  // A subscribe whose reply never came is sent again (with back-off) instead of waiting for ever.
  connection?.core.retryOverdue();
  for (const entry of views.values()) {
    const ch = channelOf(entry);
    const status = entry.core.subs.get(entry.key)?.status ?? "ASKED";
    const version = ch?.version ?? -1;
    if (now - entry.lastSentAt < Math.max(entry.throttleMs, PUBLISH_TICK_MS)) continue;
    const changed = version !== entry.lastVersion || status !== entry.lastStatus;
    if (!changed && now - entry.lastSentAt < HEALTH_BEAT_MS) continue;
    const messages = ch?.messages ?? 0;
    const elapsed = Math.max(1, now - entry.lastMessagesAt);
    // A resubscribe replaces the channel and its count starts again at 0: count from there rather
    // than report a negative rate.
    const counted = messages >= entry.lastMessages ? messages - entry.lastMessages : messages;
    const rate = entry.lastMessagesAt > 0 ? (counted * 1000) / elapsed : 0;
    entry.lastMessages = messages;
    entry.lastMessagesAt = now;
    entry.lastVersion = version;
    entry.lastStatus = status;
    entry.lastSentAt = now;
    entry.send(ch, entry, now, rate);
  }
  for (const v of accountViews.values()) {
    if (v.lastVersion === account.version || now - v.lastSentAt < ACCOUNT_THROTTLE_MS) continue;
    v.lastVersion = account.version;
    v.lastSentAt = now;
    v.send(account.snapshot());
  }
  if (views.size === 0 && accountViews.size === 0) {
    cancelTick?.();
    cancelTick = null;
  }
}

function openAccountSocket(): Connection {
  if (!config) throw new Error("configure() first");
  const cfg = config;
  const conn: Connection = new Connection({
    url: cfg.wsAuth ?? cfg.wsPublic,
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    timers: workerScheduler,
    flags: cfg.flags ?? CONF_FLAGS.OB_CHECKSUM,
    ...(cfg.watchdogMs !== undefined ? { watchdogMs: cfg.watchdogMs } : {}),
    // The account socket has no channel subscriptions; it must never idle out.
    idleMs: Number.POSITIVE_INFINITY,
    onSocketStatus: (status) => {
      // A replaced socket closing late must not unready its successor.
      if (status === "online" || authConnection !== conn) return;
      // Closed, reconnecting or going: no answer to a pending order input can come on this socket.
      accountAuth.closed();
      orders.socketClosed();
    },
    onOpened: () => {
      if (authConnection !== conn) return;
      // Authenticate on every (re)connect with the credentials held now (a renewal may have swapped
      // them); the account is rebuilt from the fresh snapshots.
      account.reset();
      accountAuth.opened();
    },
    onAuth: (ev) => {
      if (authConnection === conn) accountAuth.reply(ev);
    },
    onAccount: (type, payload) => {
      account.apply(type, payload);
      orders.onAccount(type, payload);
    },
  });
  return conn;
}

function addView(
  kind: ViewKind,
  symbol: string,
  request: SubscribeRequest,
  depth: number,
  throttleMs: number,
  send: ViewEntry["send"],
): string {
  const core = coreFor(symbol);
  const handle = `v${nextHandle++}`;
  const key = subscriptionKey(request);
  views.set(handle, {
    handle,
    kind,
    key,
    symbol,
    core,
    depth,
    throttleMs,
    send,
    lastVersion: -2,
    lastStatus: "",
    lastSentAt: 0,
    lastMessages: 0,
    lastMessagesAt: 0,
  });
  if (core !== stressCore) {
    core.subscribe(request);
    ensureConnection().start();
  }
  cancelTick ??= workerScheduler.every(PUBLISH_TICK_MS, tick);
  return handle;
}

const api = {
  configure(next: MarketConfig): void {
    if (connection && config && config.wsPublic !== next.wsPublic) {
      connection.stop();
      connection = null;
    }
    config = next;
  },

  subscribeBook(req: BookViewRequest, onView: (view: BookView) => void): string {
    const request: SubscribeRequest = {
      channel: "book",
      symbol: req.symbol,
      prec: req.prec,
      freq: "F0",
      len: String(req.len),
    };
    return addView(
      "book",
      req.symbol,
      request,
      Math.min(req.depth, req.len),
      req.throttleMs,
      (ch, entry, now, rate) => {
        const packed = ch?.book ? packBook(ch.book, entry.depth) : { levels: new Float64Array(0), bids: 0, asks: 0 };
        const view: BookView = {
          handle: entry.handle,
          symbol: entry.symbol,
          status: entry.core.subs.get(entry.key)?.status ?? "ASKED",
          bids: packed.bids,
          asks: packed.asks,
          levels: packed.levels,
          ...(packed.periods ? { periods: packed.periods } : {}),
          health: healthOf(ch, now, rate, STALE_MS, entry.core.subs.get(entry.key)),
          version: ch?.version ?? 0,
          publishedAt: now,
        };
        const buffers = packed.periods ? [packed.levels.buffer, packed.periods.buffer] : [packed.levels.buffer];
        void onView(transfer(view, buffers));
      },
    );
  },

  subscribeTrades(symbol: string, throttleMs: number, onView: (view: TradesView) => void): string {
    return addView(
      "trades",
      symbol,
      { channel: "trades", symbol },
      TRADES_LIMIT,
      throttleMs,
      (ch, entry, now, rate) => {
        const packed = ch ? packTrades(ch, entry.depth) : { rows: new Float64Array(0), count: 0 };
        const view: TradesView = {
          handle: entry.handle,
          symbol: entry.symbol,
          status: entry.core.subs.get(entry.key)?.status ?? "ASKED",
          rows: packed.rows,
          count: packed.count,
          ...(packed.periods ? { periods: packed.periods } : {}),
          health: healthOf(ch, now, rate, STALE_MS, entry.core.subs.get(entry.key)),
          version: ch?.version ?? 0,
        };
        const buffers = packed.periods ? [packed.rows.buffer, packed.periods.buffer] : [packed.rows.buffer];
        void onView(transfer(view, buffers));
      },
    );
  },

  subscribeTicker(symbol: string, onView: (view: TickerView) => void): string {
    return addView("ticker", symbol, { channel: "ticker", symbol }, 0, 250, (ch, entry, now, rate) => {
      // Decoded per published view (at most every 250 ms), not per ticker message.
      const codec = symbol.startsWith("f") ? fundingTickerCodec : tickerCodec;
      const decoded = ch?.latest == null ? null : codec.decode(ch.latest);
      void onView({
        handle: entry.handle,
        symbol: entry.symbol,
        status: entry.core.subs.get(entry.key)?.status ?? "ASKED",
        ticker: decoded?.ok ? decoded.value : null,
        health: healthOf(ch, now, rate, STALE_MS, entry.core.subs.get(entry.key)),
        version: ch?.version ?? 0,
      });
    });
  },

  subscribeCandles(key: string, throttleMs: number, onView: (view: CandlesView) => void): string {
    return addView("candles", key, { channel: "candles", key }, 0, throttleMs, (ch, entry, now, rate) => {
      const packed = ch ? packCandles(ch) : { rows: new Float64Array(0), count: 0 };
      const view: CandlesView = {
        handle: entry.handle,
        key,
        status: entry.core.subs.get(entry.key)?.status ?? "ASKED",
        rows: packed.rows,
        count: packed.count,
        health: healthOf(ch, now, rate, STALE_MS, entry.core.subs.get(entry.key)),
        version: ch?.version ?? 0,
      };
      void onView(transfer(view, [packed.rows.buffer]));
    });
  },

  subscribeStatus(key: string, onView: (view: StatusView) => void): string {
    return addView("status", key, { channel: "status", key }, 0, 250, (ch, entry, now, rate) => {
      void onView({
        handle: entry.handle,
        key,
        status: entry.core.subs.get(entry.key)?.status ?? "ASKED",
        payload: ch?.latest ?? null,
        liquidations: ch?.liquidations.slice() ?? [],
        health: healthOf(ch, now, rate, STALE_MS, entry.core.subs.get(entry.key)),
        version: ch?.version ?? 0,
      });
    });
  },

  async loadLiquidations(end: number, onView: (view: LiquidationsHistoryView) => void): Promise<void> {
    if (!config) throw new Error("configure() first");
    liquidations ??= new LiquidationsHistory(config.restPublic ?? "", async (url) => {
      const reply = await restGet(rest, url);
      return { ok: reply.ok, status: reply.status, json: () => Promise.resolve(reply.body) };
    });
    const pending = liquidations.load(end);
    void onView(liquidations.view()); // LOADING
    void onView(await pending);
  },

  unsubscribe(handle: string): void {
    if (accountViews.delete(handle)) return;
    const entry = views.get(handle);
    if (!entry) return;
    views.delete(handle);
    const stillUsed = [...views.values()].some((v) => v.key === entry.key && v.core === entry.core);
    if (!stillUsed && entry.core !== stressCore) entry.core.unsubscribe(entry.key);
  },

  onConnection(listener: (state: ConnectionState) => void): void {
    connectionListeners.push(listener);
    void listener(connectionState());
  },

  onRateLimited(listener: (retryAfter: string | null, body: unknown) => void): void {
    rateLimitListeners.push(listener);
  },

  async authenticate(creds: AccountCredentials): Promise<AuthResult> {
    const previous = authConnection;
    authConnection = null;
    previous?.stop();
    orders.socketClosed();
    const result = accountAuth.begin(creds);
    authConnection = openAccountSocket();
    authConnection.start();
    return result;
  },

  swapCredentials(creds: AccountCredentials): boolean {
    return accountAuth.swap(creds);
  },

  signOut(): void {
    const previous = authConnection;
    authConnection = null;
    previous?.stop();
    accountAuth.clear();
    orders.socketClosed();
    account.reset();
  },

  subscribeAccount(onView: (view: AccountView) => void): string {
    const handle = `a${nextHandle++}`;
    accountViews.set(handle, { send: (v) => void onView(v), lastVersion: -1, lastSentAt: 0 });
    cancelTick ??= workerScheduler.every(PUBLISH_TICK_MS, tick);
    return handle;
  },

  async submitOrder(order: OrderRequest): Promise<OrderAck> {
    return orders.submit(order);
  },

  async updateOrder(update: OrderUpdate): Promise<OrderAck> {
    return orders.update(update);
  },

  async cancelOrder(id: number): Promise<OrderAck> {
    return orders.cancel(id);
  },

  async cancelOrders(target: CancelTarget): Promise<OrderAck> {
    return orders.cancelMany(target);
  },

  async checkLedgers(): Promise<LedgerCheckResult> {
    return checkLedgers({
      base: config?.restAuth ?? "",
      fetch: rest.fetch,
      timers: rest.timers,
      headers: (path, body) => accountAuth.restHeaders(path, body),
      resetNonce: () => accountAuth.resetNonce(),
      ...(rest.onRateLimited ? { onRateLimited: rest.onRateLimited } : {}),
      account: () => ({
        version: account.version,
        wallets: account.walletsKnown ? [...account.wallets.values()] : null,
      }),
    });
  },

  setStress(setting: StressSetting | null): void {
    if (setting === null) stress.stop();
    else stress.start(setting.intervalMs, setting.count);
  },

  setFaults(settings: FaultSettings | null): void {
    faults.set(settings !== null && injectsFaults(settings) ? settings : null);
  },

  dispose(): void {
    stress.stop();
    connection?.stop();
    connection = null;
    const previous = authConnection;
    authConnection = null;
    previous?.stop();
    accountAuth.clear();
    orders.socketClosed();
    views.clear();
    connectionListeners.length = 0;
    rateLimitListeners.length = 0;
    workerScheduler.dispose();
  },
} satisfies MarketWorkerApi;

expose(api);
