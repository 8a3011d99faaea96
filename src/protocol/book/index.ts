export { BookSide } from "./side";
export { ENTRY_LENGTH, OrderBook, type BookKind, type OrderBookOptions } from "./order-book";
