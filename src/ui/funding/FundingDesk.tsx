/**
 * The funding desk (`/funding[/{ccy}]`, `/f/{ccy}`): a funding currency's headline (the flash return
 * rate, the best bid and offer with their periods, the day's figures, live from the funding
 * ticker), the connection light and the grid of funding widgets in the funding desk's own layout
 * (kept apart from the trading desk's). At phone widths, tabs instead of the grid.
 */
import { useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { useSnapshot } from "valtio";
import { toSignificant, type FundingTicker, type Ticker, type TickerView } from "../../protocol";
import { market } from "../market/market";
import { ConnectionLight } from "../desk/ConnectionLight";
import { watchConnection } from "../desk/connection-store";
import * as deskCss from "../desk/desk.css";
import { DeskGrid } from "../desk/grid/DeskGrid";
import { shownLayout, type LayoutsState } from "../desk/grid/layouts";
import { usePhoneLayout } from "../desk/phone/use-phone-layout";
import { FundingPhone } from "./FundingPhone";
import { fundingSymbol, pinnedCurrency } from "./funding-paths";
import { FUNDING_WIDGETS_BY_TYPE, fundingLayouts } from "./registry";
import { periodLabel, ratePercent, yearlyPercent } from "./widgets/funding-format";

const IGNORE = (): void => undefined;

export function FundingDesk({ currency }: { readonly currency: string }) {
  const l = useSnapshot(fundingLayouts.state);
  const phone = usePhoneLayout();
  const layout = shownLayout(l as LayoutsState);

  useEffect(() => {
    watchConnection();
    let stop: (() => void) | null = null;
    let gone = false;
    void fundingLayouts.loadAndPersistLayouts().then((s) => {
      if (gone) s();
      else stop = s;
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, []);

  return (
    <div className={deskCss.desk} data-testid="funding-desk">
      <div className={deskCss.bar}>
        <FundingHeadline key={currency} currency={currency} />
        <span className={deskCss.spacer} />
        <ConnectionLight />
      </div>
      <div className={deskCss.body}>
        <div className={deskCss.gridArea}>
          {phone && <FundingPhone currency={currency} />}
          {layout && !phone && (
            <DeskGrid
              items={layout.items}
              defs={FUNDING_WIDGETS_BY_TYPE}
              // Arranging widgets is the trading desk's (docs/product-rules.md#trading-allowed); the
              // funding desk shows its stored layout.
              editable={false}
              deskPair={currency}
              onMove={IGNORE}
              onResize={IGNORE}
              onRemove={IGNORE}
              renderWidget={(item) => {
                const def = FUNDING_WIDGETS_BY_TYPE.get(item.key.split("/")[1] ?? "");
                if (!def) return null;
                const Widget = def.component;
                const ccy = pinnedCurrency(item.pair) ?? currency;
                return <Widget widgetKey={item.key} pair={ccy} symbol={fundingSymbol(ccy)} />;
              }}
            />
          )}
        </div>
      </div>
    </div>
  );
}

function isFundingTicker(t: Ticker | FundingTicker | null): t is FundingTicker {
  return t !== null && "frr" in t;
}

/** The currency and its funding ticker: FRR, best bid and offer with their periods, 24 h figures. */
function FundingHeadline({ currency }: { readonly currency: string }) {
  const { t } = useLingui();
  const [ticker, setTicker] = useState<FundingTicker | null>(null);
  useEffect(() => {
    const ac = new AbortController();
    // A ticker changes about once a second: a state update per view is cheap and keeps this simple.
    void market().ticker(
      fundingSymbol(currency),
      (v: TickerView) => setTicker(isFundingTicker(v.ticker) ? v.ticker : null),
      ac.signal,
    );
    return () => ac.abort();
  }, [currency]);
  const cell = (label: string, value: string, testId?: string, title?: string) => (
    <span className={deskCss.stat} data-testid={testId} title={title}>
      <span className={deskCss.statLabel}>{label}</span>
      <span className={deskCss.statValue}>{value}</span>
    </span>
  );
  const none = "—";
  const days = (p: number) => {
    const count = periodLabel(p, p);
    return t`${count} d`;
  };
  const yearly = ticker ? yearlyPercent(ticker.frr) : "";
  const change = ticker?.dailyChangePerc ?? 0;
  return (
    <>
      <h1 className={deskCss.pairName} data-testid="funding-currency">
        {currency}
        <span className={deskCss.quote}> {t`Funding`}</span>
      </h1>
      {cell(
        t`FRR`,
        ticker ? ratePercent(ticker.frr) : none,
        "funding-frr",
        ticker ? t`Flash return rate, per day (${yearly} a year)` : t`Flash return rate, per day`,
      )}
      {cell(t`Bid`, ticker ? `${ratePercent(ticker.bid)} · ${days(ticker.bidPeriod)}` : none, "funding-bid")}
      {cell(t`Ask`, ticker ? `${ratePercent(ticker.ask)} · ${days(ticker.askPeriod)}` : none, "funding-ask")}
      <span className={deskCss.moreStats}>
        {cell(t`24h change`, ticker ? `${change > 0 ? "+" : ""}${(change * 100).toFixed(2)}%` : none)}
        {cell(t`24h high`, ticker ? ratePercent(ticker.high) : none)}
        {cell(t`24h low`, ticker ? ratePercent(ticker.low) : none)}
        {cell(t`24h volume`, ticker ? `${toSignificant(ticker.volume)} ${currency}` : none)}
      </span>
    </>
  );
}
