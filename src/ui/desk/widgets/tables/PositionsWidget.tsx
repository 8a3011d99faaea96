import { Trans, useLingui } from "@lingui/react/macro";
import type { AccountView, Position } from "../../../../protocol";
import { formatPercent } from "../../../../protocol";
import type { WidgetProps } from "../../widget";
import { AccountGate } from "./AccountGate";
import { SideAmount, Signed } from "./cells";
import { POSITION_SORT_KEYS, TABLE_IDS } from "./columns";
import { displayPair, formatAmount, formatPrice } from "./format";
import { SortableTable, type Column } from "./SortableTable";
import * as css from "./tables.css";

/** Open margin and derivative positions with their P/L (widget type "positions"). */
export function PositionsWidget(_props: WidgetProps) {
  return (
    <div className={css.widget} data-testid="positions-widget">
      <AccountGate>{(view) => <Positions view={view} />}</AccountGate>
    </div>
  );
}

function Positions(props: { readonly view: AccountView }) {
  const { t } = useLingui();
  const columns: Column<Position>[] = [
    { id: "pair", label: t`Pair`, render: (p) => displayPair(p.pair) },
    { id: "amount", label: t`Amount`, align: "end", render: (p) => <SideAmount value={p.amount} /> },
    { id: "base", label: t`Base price`, align: "end", render: (p) => formatPrice(p.basePrice) },
    { id: "liq", label: t`Liq. price`, align: "end", render: (p) => formatPrice(p.liqPrice) },
    {
      id: "pl",
      label: t`P/L`,
      align: "end",
      render: (p) => <Signed value={p.pl} text={formatAmount(p.pl, 2)} />,
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
    { id: "swap", label: t`Funding cost`, align: "end", render: (p) => formatAmount(p.swap, 2) },
    {
      id: "leverage",
      label: t`Leverage`,
      align: "end",
      render: (p) => (p.leverage === null ? "–" : `${formatAmount(p.leverage, 1)}×`),
    },
  ];
  return (
    <SortableTable
      tableId={TABLE_IDS.positions}
      columns={columns}
      rows={props.view.positions}
      sortKeys={POSITION_SORT_KEYS}
      rowKey={(p) => p.id ?? p.pair}
      empty={<Trans>No open positions.</Trans>}
    />
  );
}
