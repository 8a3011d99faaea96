export { BookSide } from "./side";
export { OrderBook, type BookKind } from "./order-book";
export { FUNDING_GROUP_STRIDE, groupFundingByRate } from "./funding-groups";
