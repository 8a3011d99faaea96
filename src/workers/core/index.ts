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
export { healthOf, packBook, packTrades, type PackedBook } from "./views";
