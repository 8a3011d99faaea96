/**
 * The order book widget and what the desk's other market widgets share with it: the injectable
 * market source, the feed-health badge and its store, and the number labels and caches.
 */
export { orderBookWidget, WaitingNote } from "./OrderBook";
export { MarketSourceContext, resolveSource, useInjectedSource } from "./market-source";
export { FeedBadge } from "./FeedBadge";
export { HealthStore } from "./feed-health";
export {
  amountLabel,
  bookPrecision,
  BoundedCache,
  formValue,
  lengthForDepth,
  precisionDigits,
  priceLabel,
} from "./book-format";
