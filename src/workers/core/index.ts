/** The framework-free market-data core shared by the worker, `npm run replay` and the bench. */
export { CandleSeries, Channel, TradesList, bookKindOf, type ChannelKind, type TradeRow } from "./channel";
export { FeedCore, newFeedStats, type FeedCoreOptions, type FeedStats } from "./feed";
export {
  newSubscription,
  normalizeRequest,
  subscribeMessage,
  subscriptionKey,
  type ChannelName,
  type ChannelStatus,
  type SubscribeRequest,
  type Subscription,
  type SubscriptionError,
} from "./subscriptions";
export { Connection, type ConnectionOptions, type SocketLike } from "./connection";
export { STRESS_SYMBOL, StressSource } from "./stress";
export { healthOf, packBook, packCandles, packTrades, type PackedBook } from "./views";
export { AccountCore, HISTORY_PER_PAIR, NOTIFICATIONS_KEPT, OWN_TRADES_KEPT, type AccountSnapshot } from "./account";
export {
  AccountAuth,
  authMessage,
  hmacSha384Hex,
  NonceSource,
  readAuthReply,
  SIGNED_OUT,
  type AccountAuthOptions,
  type AuthOutcome,
  type Credentials,
  type HmacCrypto,
} from "./auth";
export { LiquidationsHistory, type JsonFetch } from "./history";
export { OrderDesk, ORDER_TIMEOUT_MS, type CancelTarget, type OrderDeskOptions } from "./orders";
