import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { useSnapshot } from "valtio";
import {
  MARGIN_GROUP_CROSS_COLLATERAL,
  parseSymbol,
  type AccountView,
  type MarginInfoBase,
  type MarginInfoSymbol,
} from "../../../../protocol";
import { session } from "../../../session";
import { CONTEXT_LABELS } from "../order-form/messages";
import { liquidationDistance, liquidationPrice, nearLiquidation } from "../../margin-risk";
import type { WidgetProps } from "../../widget";
import { AccountGate } from "../tables/AccountGate";
import { Signed } from "../tables/cells";
import { displayPair, formatAmount, formatPercentValue, formatPrice } from "../tables/format";
import * as css from "./margin.css";

/** The currency the exchange's account-wide margin figures are in (docs/protocol.md#margin-info). */
const BASE_CURRENCY = "USD";

/**
 * Margin info (widget type "margin"): the account's margin figures (`miu` base), what the desk's
 * pair can still trade (`miu` per symbol), the account's margin group, and a warning for every
 * position near its liquidation price (docs/product-rules.md#liquidation-warning).
 */
export function MarginWidget(props: WidgetProps) {
  return (
    <div className={css.root} data-testid="margin-widget">
      <AccountGate>{(view) => <MarginInfo view={view} symbol={props.symbol} />}</AccountGate>
    </div>
  );
}

function MarginInfo(props: { readonly view: AccountView; readonly symbol: string }) {
  const { t } = useLingui();
  const s = useSnapshot(session);
  const { marginBase, marginSymbols, positions } = props.view;
  const sym = marginSymbols[props.symbol] ?? null;
  const group = s.user?.teMarginGroup ?? null;
  const near = positions.filter((p) => p.amount !== 0 && nearLiquidation(p));
  return (
    <>
      {near.map((p) => {
        const pair = displayPair(p.pair);
        const distance = formatPercentValue(liquidationDistance(p) ?? 0);
        const price = formatPrice(liquidationPrice(p));
        return (
          <p key={p.id ?? p.pair} className={css.warning} role="status" data-testid="liquidation-warning">
            {t`${pair} is near liquidation: a ${distance} move reaches ${price}.`}
          </p>
        );
      })}
      <div className={css.columns}>
        {marginBase ? (
          <BaseFigures base={marginBase} />
        ) : (
          <p className={css.note}>
            <Trans>Waiting for margin info…</Trans>
          </p>
        )}
        {sym && <SymbolFigures info={sym} />}
      </div>
      {group !== null && (
        <div className={css.section}>
          <dl className={css.list}>
            <Figure term={t`Margin group`} testId="margin-group">
              {group === MARGIN_GROUP_CROSS_COLLATERAL ? t`Cross collateral` : t`Per currency`}
            </Figure>
          </dl>
          <p className={css.note}>
            {group === MARGIN_GROUP_CROSS_COLLATERAL
              ? t`Every margin balance backs every position.`
              : t`Each currency's margin balance backs its own positions.`}
          </p>
        </div>
      )}
    </>
  );
}

function Figure(props: { readonly term: string; readonly children: ReactNode; readonly testId: string }) {
  return (
    <>
      <dt className={css.term}>{props.term}</dt>
      <dd className={css.value} data-testid={props.testId}>
        {props.children}
      </dd>
    </>
  );
}

const money = (v: number | null): string => formatAmount(v, 2);

function BaseFigures(props: { readonly base: MarginInfoBase }) {
  const { t, i18n } = useLingui();
  const b = props.base;
  const heading = `${i18n._(CONTEXT_LABELS.margin)} · ${BASE_CURRENCY}`;
  return (
    <section className={css.section} aria-label={heading}>
      <h3 className={css.heading}>{heading}</h3>
      <dl className={css.list}>
        <Figure term={t`P/L`} testId="margin-pl">
          <Signed value={b.pl} text={money(b.pl)} />
        </Figure>
        <Figure term={t`Funding cost`} testId="margin-swap">
          {money(b.swap)}
        </Figure>
        <Figure term={t`Margin balance`} testId="margin-balance">
          {money(b.balance)}
        </Figure>
        <Figure term={t`Net value`} testId="margin-net">
          {money(b.net)}
        </Figure>
        <Figure term={t`Required margin`} testId="margin-required">
          {money(b.required)}
        </Figure>
      </dl>
    </section>
  );
}

function SymbolFigures(props: { readonly info: MarginInfoSymbol }) {
  const { t } = useLingui();
  const m = props.info;
  const parsed = parseSymbol(m.symbol);
  const base = parsed?.kind === "trading" ? parsed.base : "";
  const quote = parsed?.kind === "trading" ? parsed.quote : "";
  const heading = displayPair(m.symbol);
  const withUnit = (text: string, unit: string): string => (text === "–" ? text : `${text} ${unit}`);
  return (
    <section className={css.section} aria-label={heading}>
      <h3 className={css.heading}>{heading}</h3>
      <dl className={css.list}>
        <Figure term={t`Tradable balance`} testId="margin-tradable">
          {withUnit(money(m.net), quote)}
        </Figure>
        <Figure term={t`Gross balance`} testId="margin-gross">
          {withUnit(money(m.gross), quote)}
        </Figure>
        <Figure term={t`Max buy`} testId="margin-buy">
          {withUnit(formatAmount(m.buy), base)}
        </Figure>
        <Figure term={t`Max sell`} testId="margin-sell">
          {withUnit(formatAmount(m.sell), base)}
        </Figure>
      </dl>
    </section>
  );
}
