export { tradesTapeWidget } from "./TradesTape";
