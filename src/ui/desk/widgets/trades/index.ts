export { ownTrades, TradesTape, tradesTapeWidget } from "./TradesTape";
