/** The framework-free market-data core shared by the worker, `npm run replay` and the bench. */
export { Channel } from "./channel";
export { FeedCore } from "./feed";
export { subscriptionKey, type SubscribeRequest } from "./subscriptions";
export { Connection, type SocketLike } from "./connection";
export { STRESS_SYMBOL, StressSource } from "./stress";
export { FaultInjector, faultySocket, injectsFaults } from "./faults";
export { healthOf, packBook, packCandles, packTrades } from "./views";
export { AccountCore } from "./account";
export { AccountAuth, authMessage, readAuthReply, type HmacCrypto } from "./auth";
export { LiquidationsHistory } from "./history";
export { checkLedgers } from "./ledger-check";
export { restGet, type WorkerRest } from "./rest";
export { OrderDesk, type CancelTarget } from "./orders";
