export { OrderBook, orderBookWidget } from "./OrderBook";
export { BOOK_LAYOUT, type BookLayout } from "./book-layout";
export { MarketSourceContext, type MarketSource } from "./market-source";
export { FeedBadge } from "./FeedBadge";
export { HealthStore, assessHealth, type HealthSummary } from "./feed-health";
