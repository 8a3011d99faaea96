/**
 * Balances table rules: the wallet tab (`balances_tab`: both shows every wallet, otherwise one wallet
 * type) and hiding small balances below `small_balances_threshold` when `hide_small_balances` is on.
 */
import type { Wallet } from "../../../../protocol";

export type BalancesTab = "both" | "exchange" | "margin" | "funding";
export const BALANCES_TABS: readonly BalancesTab[] = ["both", "exchange", "margin", "funding"];

export function filterWallets(
  wallets: readonly Wallet[],
  tab: BalancesTab,
  hideSmall: boolean,
  threshold: number,
): Wallet[] {
  return wallets.filter((w) => (tab === "both" || w.type === tab) && (!hideSmall || Math.abs(w.balance) >= threshold));
}
