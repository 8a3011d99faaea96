import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { useSnapshot } from "valtio";
import type { AccountView, Wallet } from "../../../../protocol";
import { settings, updateSetting } from "../../../settings/store";
import type { WidgetProps } from "../../widget";
import { AccountGate } from "./AccountGate";
import { BALANCES_TABS, filterWallets, type BalancesTab } from "./balances";
import { BALANCE_SORT_KEYS, TABLE_IDS } from "./columns";
import { formatAmount } from "./format";
import { SortableTable, type Column } from "./SortableTable";
import * as css from "./tables.css";

/** Wallet balances, total and available, per wallet type (widget type "balances"). */
export function BalancesWidget(_props: WidgetProps) {
  return (
    <div className={css.widget} data-testid="balances-widget">
      <AccountGate>{(view) => <Balances view={view} />}</AccountGate>
    </div>
  );
}

function Balances(props: { readonly view: AccountView }) {
  const { t } = useLingui();
  const s = useSnapshot(settings);
  const tab = s.balances_tab;
  const { wallets, balance } = props.view;
  const rows = useMemo(
    () => filterWallets(wallets, tab, s.hide_small_balances, s.small_balances_threshold),
    [wallets, tab, s.hide_small_balances, s.small_balances_threshold],
  );
  const tabLabel: Record<BalancesTab, string> = {
    both: t`All`,
    exchange: t`Exchange`,
    margin: t`Margin`,
    funding: t`Funding`,
  };
  const walletLabel = (type: string): string =>
    type === "exchange" || type === "margin" || type === "funding" ? tabLabel[type] : type;
  const columns: Column<Wallet>[] = [
    { id: "currency", label: t`Currency`, render: (w) => <strong>{w.currency}</strong> },
    ...(tab === "both"
      ? [
          {
            id: "wallet",
            label: t`Wallet`,
            render: (w: Wallet) => <span className={css.muted}>{walletLabel(w.type)}</span>,
          },
        ]
      : []),
    { id: "total", label: t`Total`, align: "end", render: (w) => formatAmount(w.balance) },
    {
      id: "available",
      label: t`Available`,
      align: "end",
      render: (w) => (
        <span className={w.available < w.balance ? css.muted : undefined}>{formatAmount(w.available)}</span>
      ),
    },
  ];
  return (
    <>
      <div className={css.toolbar}>
        <div className={css.tabs} role="tablist" aria-label={t`Wallet`}>
          {BALANCES_TABS.map((id) => (
            <button
              key={id}
              type="button"
              role="tab"
              className={css.tab}
              aria-selected={tab === id}
              data-testid={`balances-tab-${id}`}
              onClick={() => updateSetting("balances_tab", id)}
            >
              {tabLabel[id]}
            </button>
          ))}
        </div>
        <span className={css.spacer} />
        <label className={css.check}>
          <input
            type="checkbox"
            data-testid="hide-small"
            checked={s.hide_small_balances}
            onChange={(e) => updateSetting("hide_small_balances", e.currentTarget.checked)}
          />
          <Trans>Hide small balances</Trans>
        </label>
      </div>
      <SortableTable
        tableId={TABLE_IDS.balances}
        columns={columns}
        rows={rows}
        sortKeys={BALANCE_SORT_KEYS}
        rowKey={(w) => `${w.type}:${w.currency}`}
        empty={<Trans>No balances to show.</Trans>}
      />
      {balance && <BalanceTotal aum={balance.aum} aumNet={balance.aumNet} />}
    </>
  );
}

function BalanceTotal(props: { readonly aum: number; readonly aumNet: number }) {
  const aum = formatAmount(props.aum, 2);
  const net = formatAmount(props.aumNet, 2);
  return (
    <div className={css.total} data-testid="balances-total">
      <Trans>
        Assets under management: {aum} (net {net})
      </Trans>
    </div>
  );
}
