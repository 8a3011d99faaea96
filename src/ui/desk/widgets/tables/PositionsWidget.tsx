import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import type { AccountView, Position } from "../../../../protocol";
import { formatPercent } from "../../../../protocol";
import type { WidgetProps } from "../../widget";
import { AccountGate } from "./AccountGate";
import { SideAmount, Signed } from "./cells";
import { POSITION_SORT_KEYS, TABLE_IDS } from "./columns";
import { FilterBar } from "./FilterBar";
import { filterPositions } from "./filters";
import { displayPair, formatAmount, formatPrice } from "./format";
import { SortableTable, type Column } from "./SortableTable";
import * as css from "./tables.css";
import { useFilters } from "./use-table-settings";
import { useValuation } from "./use-valuation";
import { quoteOf, shownAmount, type ShownAmount } from "./valuation";

/** Open margin and derivative positions with their P/L (widget type "positions"). */
export function PositionsWidget(props: WidgetProps) {
  return (
    <div className={css.widget} data-testid="positions-widget">
      <AccountGate>{(view) => <Positions view={view} symbol={props.symbol} />}</AccountGate>
    </div>
  );
}

function Positions(props: { readonly view: AccountView; readonly symbol: string }) {
  const { t } = useLingui();
  const filters = useFilters();
  const valuation = useValuation();
  const unit = valuation.unit;
  const { positions } = props.view;
  const rows = useMemo(() => filterPositions(positions, filters, props.symbol), [positions, filters, props.symbol]);
  // P/L and funding cost are in the pair's quote currency; in bitcoin view, in bitcoin.
  const money = (p: Position, amount: number | null): ShownAmount | null =>
    shownAmount(valuation, quoteOf(p.pair), amount, 2);
  // The column header names the unit; a row the prices cannot convert names its own currency.
  const moneyText = (m: ShownAmount | null): string =>
    m === null ? "–" : unit !== null && m.currency !== unit ? `${m.text} ${m.currency ?? ""}`.trim() : m.text;
  const columns: Column<Position>[] = [
    { id: "pair", label: t`Pair`, render: (p) => displayPair(p.pair) },
    { id: "amount", label: t`Amount`, align: "end", render: (p) => <SideAmount value={p.amount} /> },
    { id: "base", label: t`Base price`, align: "end", render: (p) => formatPrice(p.basePrice) },
    { id: "liq", label: t`Liq. price`, align: "end", render: (p) => formatPrice(p.liqPrice) },
    {
      id: "pl",
      label: unit === null ? t`P/L` : t`P/L (${unit})`,
      align: "end",
      render: (p) => <Signed value={p.pl} text={moneyText(money(p, p.pl))} />,
    },
    {
      id: "plPercent",
      label: t`P/L %`,
      align: "end",
      // The exchange sends P/L % already in percent.
      render: (p) => (
        <Signed value={p.plPercent} text={p.plPercent === null ? "–" : formatPercent(p.plPercent / 100)} />
      ),
    },
    {
      id: "swap",
      label: unit === null ? t`Funding cost` : t`Funding cost (${unit})`,
      align: "end",
      render: (p) => moneyText(money(p, p.swap)),
    },
    {
      id: "leverage",
      label: t`Leverage`,
      align: "end",
      render: (p) => (p.leverage === null ? "–" : `${formatAmount(p.leverage, 1)}×`),
    },
  ];
  return (
    <>
      <div className={css.toolbar}>
        <FilterBar filters={filters} context={false} />
      </div>
      <SortableTable
        tableId={TABLE_IDS.positions}
        columns={columns}
        rows={rows}
        sortKeys={POSITION_SORT_KEYS}
        rowKey={(p) => p.id ?? p.pair}
        empty={<Trans>No open positions.</Trans>}
      />
    </>
  );
}
