/**
 * Balances table rules: the wallet tab (`balances_tab`: both shows every wallet, otherwise one wallet
 * type) and hiding small balances below `small_balances_threshold` when `hide_small_balances` is on.
 */
import { WALLET_TYPE, type Wallet } from "../../../../protocol";

/** Every wallet, or one of the wallet types the desk trades on. */
export type BalancesTab = "both" | (typeof WALLET_TYPE)[keyof typeof WALLET_TYPE];
export const BALANCES_TABS: readonly BalancesTab[] = [
  "both",
  WALLET_TYPE.EXCHANGE,
  WALLET_TYPE.MARGIN,
  WALLET_TYPE.FUNDING,
];

export function isBalancesTab(value: string): value is BalancesTab {
  return (BALANCES_TABS as readonly string[]).includes(value);
}

export function filterWallets(
  wallets: readonly Wallet[],
  tab: BalancesTab,
  hideSmall: boolean,
  threshold: number,
): Wallet[] {
  return wallets.filter((w) => (tab === "both" || w.type === tab) && (!hideSmall || Math.abs(w.balance) >= threshold));
}
