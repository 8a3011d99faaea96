export { BookSide } from "./side";
export { ENTRY_LENGTH, OrderBook, type BookKind, type OrderBookOptions } from "./order-book";
export { FUNDING_GROUP_STRIDE, groupFundingByRate } from "./funding-groups";
