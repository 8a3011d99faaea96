export { BookSide } from "./side";
export { OrderBook, type BookKind } from "./order-book";
