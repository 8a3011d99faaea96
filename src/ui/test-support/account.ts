/**
 * For tests: an account view as the worker sends it, empty but for what a test sets (`over`), so
 * each test states only the records it is about. Not used by the app itself.
 */
import type { AccountView } from "../../protocol";

export function accountView(over: Partial<AccountView> = {}): AccountView {
  return {
    orders: [],
    history: {},
    positions: [],
    wallets: [],
    balance: null,
    fundingOffers: [],
    credits: [],
    loans: [],
    trades: [],
    fundingTrades: [],
    notifications: [],
    marginBase: null,
    marginSymbols: {},
    fundingInfo: {},
    version: 1,
    ...over,
  };
}
