import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo, useState } from "react";
import type { AccountView, Position } from "../../../../protocol";
import { formatPercent } from "../../../../protocol";
import { nearLiquidation } from "../../margin-risk";
import type { WidgetProps } from "../../widget";
import { AccountGate } from "./AccountGate";
import { CollateralPanel } from "./CollateralPanel";
import { SideAmount, Signed } from "./cells";
import { POSITION_SORT_KEYS, TABLE_IDS } from "./columns";
import { FilterBar } from "./FilterBar";
import { filterPositions } from "./filters";
import { displayPair, formatAmount, formatPrice } from "./format";
import { IncreasePositionPanel } from "./IncreasePositionPanel";
import { claimPosition, closePosition, usePositionServices } from "./position-actions";
import { SortableTable, type Column } from "./SortableTable";
import * as pcss from "./positions.css";
import * as css from "./tables.css";
import { useFilters } from "./use-table-settings";
import { useValuation } from "./use-valuation";
import { quoteOf, shownAmount, type ShownAmount } from "./valuation";

/**
 * Open margin and derivative positions with their P/L and liquidation price, flagged when near it
 * (docs/product-rules.md#liquidation-warning), and their actions: close, claim, increase (widget
 * type "positions").
 */
export function PositionsWidget(props: WidgetProps) {
  return (
    <div className={css.widget} data-testid="positions-widget">
      <AccountGate>{(view) => <Positions view={view} symbol={props.symbol} />}</AccountGate>
    </div>
  );
}

/** A confirmation asked before an action that cannot be undone. */
type Confirm = { readonly kind: "close" | "claim"; readonly position: Position };

/** Positions are keyed by id; a record without one (never from this exchange) by its pair. */
const positionKey = (p: Position): string | number => p.id ?? p.pair;

function Positions(props: { readonly view: AccountView; readonly symbol: string }) {
  const { t, i18n } = useLingui();
  const services = usePositionServices();
  const [increasing, setIncreasing] = useState<Position | null>(null);
  const [collateralOf, setCollateralOf] = useState<Position | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<string | number>>(new Set());
  const filters = useFilters();
  const valuation = useValuation();
  const unit = valuation.unit;
  const { positions } = props.view;
  const rows = useMemo(() => filterPositions(positions, filters, props.symbol), [positions, filters, props.symbol]);
  // A panel for a position that has closed since has nothing left to act on; the row's latest
  // record is what the panel shows.
  const current = (p: Position | null): Position | null =>
    p === null ? null : (positions.find((x) => positionKey(x) === positionKey(p)) ?? null);
  const increased = current(increasing);
  const collateralPosition = current(collateralOf);
  const confirmed = confirm && current(confirm.position);

  const act = async (c: Confirm): Promise<void> => {
    const key = positionKey(c.position);
    setConfirm(null);
    setBusy((b) => new Set(b).add(key));
    if (c.kind === "close") await closePosition(i18n, services, c.position);
    else await claimPosition(i18n, services, c.position);
    setBusy((b) => {
      const next = new Set(b);
      next.delete(key);
      return next;
    });
  };
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
    {
      id: "liq",
      label: t`Liq. price`,
      align: "end",
      // 0 from the exchange: no price liquidates the position.
      render: (p) => (
        <>
          {p.liqPrice === 0 ? "–" : formatPrice(p.liqPrice)}
          {nearLiquidation(p) && (
            <span className={pcss.warningBadge} data-testid="near-liquidation">
              {t`Near liquidation`}
            </span>
          )}
        </>
      ),
    },
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
    {
      id: "actions",
      label: <span className={css.muted}>{t`Actions`}</span>,
      align: "end",
      pinEnd: true,
      render: (p) => (
        <PositionActions
          position={p}
          busy={busy.has(positionKey(p))}
          onClose={() => setConfirm({ kind: "close", position: p })}
          onClaim={() => setConfirm({ kind: "claim", position: p })}
          onIncrease={() => setIncreasing(p)}
          onCollateral={() => setCollateralOf(p)}
        />
      ),
    },
  ];
  return (
    <>
      <div className={css.toolbar}>
        <FilterBar filters={filters} context={false} />
      </div>
      {increased && (
        <IncreasePositionPanel key={positionKey(increased)} position={increased} onClose={() => setIncreasing(null)} />
      )}
      {collateralPosition && (
        <CollateralPanel
          key={positionKey(collateralPosition)}
          position={collateralPosition}
          onClose={() => setCollateralOf(null)}
        />
      )}
      {confirmed && confirm && (
        <ConfirmPanel confirm={{ ...confirm, position: confirmed }} onConfirm={act} onCancel={() => setConfirm(null)} />
      )}
      <SortableTable
        tableId={TABLE_IDS.positions}
        columns={columns}
        rows={rows}
        sortKeys={POSITION_SORT_KEYS}
        rowKey={positionKey}
        empty={<Trans>No open positions.</Trans>}
      />
    </>
  );
}

function ConfirmPanel(props: {
  readonly confirm: Confirm;
  readonly onConfirm: (c: Confirm) => Promise<void>;
  readonly onCancel: () => void;
}) {
  const { t } = useLingui();
  const { kind, position: p } = props.confirm;
  const pair = displayPair(p.pair);
  const amount = formatAmount(p.amount);
  const question =
    kind === "close"
      ? t`Close ${amount} ${pair} at market?`
      : t`Claim ${amount} ${pair} with the margin wallet's own funds?`;
  return (
    <div className={css.panel} role="alertdialog" aria-label={question} data-testid="position-confirm">
      <strong>{question}</strong>
      <button
        type="button"
        className={kind === "close" ? css.button.danger : css.button.primary}
        autoFocus
        onClick={() => void props.onConfirm(props.confirm)}
      >
        {kind === "close" ? t`Close position` : t`Claim`}
      </button>
      <button type="button" className={css.button.plain} onClick={props.onCancel}>
        <Trans>Cancel</Trans>
      </button>
    </div>
  );
}

function PositionActions(props: {
  readonly position: Position;
  readonly busy: boolean;
  readonly onClose: () => void;
  readonly onClaim: () => void;
  readonly onIncrease: () => void;
  /** Derivative positions: set the collateral (CollateralPanel). */
  readonly onCollateral: () => void;
}) {
  const { t } = useLingui();
  const pair = displayPair(props.position.pair);
  const id = positionKey(props.position);
  // Claiming and increasing settle against the margin wallet: derivative positions have neither.
  const margin = props.position.posType !== 1;
  return (
    <span className={pcss.actions}>
      {!margin && (
        <button
          type="button"
          className={css.button.plain}
          aria-label={t`Set collateral ${pair}`}
          disabled={props.busy}
          onClick={props.onCollateral}
        >
          {t`Collateral`}
        </button>
      )}
      {margin && (
        <button
          type="button"
          className={css.button.plain}
          aria-label={t`Increase position ${pair}`}
          data-testid={`position-increase-${id}`}
          disabled={props.busy}
          onClick={props.onIncrease}
        >
          {t`Increase`}
        </button>
      )}
      {margin && (
        <button
          type="button"
          className={css.button.plain}
          aria-label={t`Claim position ${pair}`}
          data-testid={`position-claim-${id}`}
          disabled={props.busy}
          onClick={props.onClaim}
        >
          {t`Claim`}
        </button>
      )}
      <button
        type="button"
        className={css.button.danger}
        aria-label={t`Close position ${pair}`}
        data-testid={`position-close-${id}`}
        disabled={props.busy}
        onClick={props.onClose}
      >
        {t`Close`}
      </button>
    </span>
  );
}
