/**
 * The order book widget and what the desk's other market widgets share with it: the injectable
 * market source, the feed-health badge and its store, and the number labels and caches.
 */
export { OrderBook, orderBookWidget } from "./OrderBook";
export { BOOK_LAYOUT, bookLayout, type BookLayout } from "./book-layout";
export { MarketSourceContext, resolveSource, useInjectedSource, type MarketSource } from "./market-source";
export { FeedBadge } from "./FeedBadge";
export { assessHealth, HealthStore, SILENCE_LIMIT_MS, type HealthLevel, type HealthSummary } from "./feed-health";
export {
  amountLabel,
  bookPrecision,
  BoundedCache,
  formValue,
  LabelCache,
  lengthForDepth,
  levelPrice,
  precisionDigits,
  priceLabel,
} from "./book-format";
