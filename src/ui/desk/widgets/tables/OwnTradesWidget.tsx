import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { WALLET_DECIMALS, type AccountView, type AuthTrade } from "../../../../protocol";
import { useOrderWords } from "../../order-words";
import type { WidgetProps } from "../../widget";
import { AccountGate } from "./AccountGate";
import { SideAmount } from "./cells";
import { TABLE_IDS, TRADE_SORT_KEYS } from "./columns";
import { FilterBar } from "./FilterBar";
import { filterTrades } from "./filters";
import { displayPair, formatPrice } from "./format";
import { SortableTable, type Column } from "./SortableTable";
import * as css from "./tables.css";
import { useFilters, useTimeCell } from "./use-table-settings";
import { useValuation } from "./use-valuation";
import { shownAmount } from "./valuation";

/** The account's own fills (widget type "own-trades"). */
export function OwnTradesWidget(props: WidgetProps) {
  return (
    <div className={css.widget} data-testid="own-trades-widget">
      <AccountGate>{(view) => <OwnTrades view={view} symbol={props.symbol} />}</AccountGate>
    </div>
  );
}

function OwnTrades(props: { readonly view: AccountView; readonly symbol: string }) {
  const { t } = useLingui();
  const words = useOrderWords();
  const filters = useFilters();
  const time = useTimeCell();
  // In bitcoin view the fee is shown in bitcoin (its own currency when no price converts it).
  const valuation = useValuation();
  const { trades } = props.view;
  const rows = useMemo(() => filterTrades(trades, filters, props.symbol), [trades, filters, props.symbol]);
  const columns: Column<AuthTrade>[] = [
    { id: "time", label: t`Time`, render: (r) => <span className={css.muted}>{time(r.mts_create)}</span> },
    { id: "pair", label: t`Pair`, render: (r) => displayPair(r.pair) },
    { id: "amount", label: t`Amount`, align: "end", render: (r) => <SideAmount value={r.exec_amount} /> },
    { id: "price", label: t`Price`, align: "end", render: (r) => formatPrice(r.exec_price) },
    {
      id: "fee",
      label: t`Fee`,
      align: "end",
      render: (r) => {
        const fee = shownAmount(valuation, r.fee_currency, r.fee, WALLET_DECIMALS);
        return fee === null ? <span className={css.muted}>–</span> : `${fee.text} ${fee.currency ?? ""}`.trim();
      },
    },
    {
      id: "type",
      label: t`Order type`,
      render: (r) =>
        r.order_type === null ? (
          <span className={css.muted}>–</span>
        ) : (
          <span title={words.context(r.order_type)}>{words.type(r.order_type)}</span>
        ),
    },
    {
      id: "maker",
      label: t`Role`,
      render: (r) => <span className={css.muted}>{r.isMaker ? t`Maker` : t`Taker`}</span>,
    },
  ];
  return (
    <>
      <div className={css.toolbar}>
        <FilterBar filters={filters} />
      </div>
      <SortableTable
        tableId={TABLE_IDS.ownTrades}
        columns={columns}
        rows={rows}
        sortKeys={TRADE_SORT_KEYS}
        rowKey={(r) => r.id}
        empty={<Trans>No trades yet.</Trans>}
      />
    </>
  );
}
