import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { useSnapshot } from "valtio";
import type { AccountView, Wallet } from "../../../../protocol";
import { settings, updateSetting } from "../../../settings/store";
import type { WidgetProps } from "../../widget";
import { useRates, valueIn } from "../../../rates";
import { unitDecimals, valuationUnit } from "../../bitcoin-view";
import { AccountGate } from "./AccountGate";
import { BALANCES_TABS, filterWallets, isBalancesTab, type BalancesTab } from "./balances";
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
  // Values in the equivalent currency, or in bitcoin in bitcoin view mode, at the exchange's
  // conversion rates (src/ui/rates: cached 60 s, batched, bridged through USD; one render per
  // refresh, never per tick). USD is always asked: the AUM comes in USD.
  const unit = valuationUnit(s);
  const currencies = useMemo(() => [...wallets.map((w) => w.currency), "USD"], [wallets]);
  const rates = useRates(currencies, unit);
  const valueOf = (currency: string, amount: number): number => valueIn(rates, currency, amount, unit);
  const value = (currency: string, amount: number): string => {
    const v = valueOf(currency, amount);
    return Number.isNaN(v) ? "—" : formatAmount(v, unitDecimals(unit));
  };
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
  const walletLabel = (type: string): string => (isBalancesTab(type) ? tabLabel[type] : type);
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
      id: "value",
      label: t`Value (${unit})`,
      align: "end",
      render: (w) => <span className={css.muted}>{value(w.currency, w.balance)}</span>,
    },
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
        <button
          type="button"
          className={css.tab}
          aria-pressed={s.bitcoin_view_enabled}
          title={t`Bitcoin view: show values in bitcoin`}
          data-testid="bitcoin-view"
          onClick={() => updateSetting("bitcoin_view_enabled", !settings.bitcoin_view_enabled)}
        >
          ₿
        </button>
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
      {balance && (
        <BalanceTotal aum={valueOf("USD", balance.aum)} aumNet={valueOf("USD", balance.aumNet)} unit={unit} />
      )}
    </>
  );
}

/** The account's AUM (the exchange reports it in USD), shown in the valuation unit. */
function BalanceTotal(props: { readonly aum: number; readonly aumNet: number; readonly unit: string }) {
  if (Number.isNaN(props.aum)) return null;
  const aum = formatAmount(props.aum, unitDecimals(props.unit));
  const net = formatAmount(props.aumNet, unitDecimals(props.unit));
  const unit = props.unit;
  return (
    <div className={css.total} data-testid="balances-total">
      <Trans>
        Assets under management: {aum} {unit} (net {net} {unit})
      </Trans>
    </div>
  );
}
