/**
 * The funding trades tape: the currency's public funding trades (rate coloured by the taker's side,
 * period, amount, time), painted by the trading tape's painter into at most 100 rows from the
 * worker's throttled views (no React render per trade). The colour is the amount's sign as on the
 * wire: the taker's side.
 */
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useState, useSyncExternalStore } from "react";
import { FeedBadge, HealthStore } from "../../../desk/widgets/book";
import { TradesPainter } from "../../../desk/widgets/trades/trades-painter";
import { usePublicTrades } from "../../../desk/widgets/trades/TradesTape";
import * as tape from "../../../desk/widgets/trades/trades-tape.css";
import type { WidgetDef, WidgetProps } from "../../../desk/widget";
import { appScheduler } from "../../../scheduler";
import { useTimeFormat } from "../../../time/format";
import { ratePercent } from "../funding-format";
import * as rateCss from "../funding.css";
import * as css from "./funding-trades.css";

export function FundingTrades({ symbol }: WidgetProps) {
  const { t } = useLingui();
  const timeFormat = useTimeFormat();
  const [health] = useState(() => new HealthStore(() => appScheduler.now()));
  const [painter] = useState(() => new TradesPainter(timeFormat.clock, tape.ROW_HEIGHT, ratePercent));
  const { rows, register, observe } = usePublicTrades(symbol, painter, health);

  return (
    <div className={tape.root} data-testid="funding-trades">
      <div className={tape.tabbar}>
        <span className={css.title}>{t`Market trades`}</span>
        <span className={tape.spacer} />
        <FeedBadge store={health} testId="funding-trades-health" />
      </div>
      <div className={`${tape.heads} ${css.columns}`} aria-hidden="true">
        <span className={`${tape.head} ${tape.headLeft}`}>{t`Rate / day`}</span>
        <span className={tape.head}>{t`Days`}</span>
        <span className={tape.head}>{t`Amount`}</span>
        <span className={tape.head}>{t`Time`}</span>
      </div>
      <div ref={observe} className={tape.panel} role="region" aria-label={t`Market trades`} tabIndex={0}>
        {Array.from({ length: rows }, (_, i) => (
          <div key={i} ref={register} className={`${tape.row} ${css.columns}`} data-index={i} data-empty="">
            <span className={`${tape.cell} ${rateCss.rate}`} data-part="price" />
            <span className={tape.cell} data-part="period" />
            <span className={tape.cell} data-part="amount" />
            <span className={`${tape.cell} ${tape.muted}`} data-part="time" />
          </div>
        ))}
        {rows === 0 ? <Note health={health} /> : null}
      </div>
    </div>
  );
}

function Note({ health }: { readonly health: HealthStore }) {
  const { t } = useLingui();
  const h = useSyncExternalStore(health.subscribe, health.getSnapshot);
  return <div className={tape.note}>{h.status === "NONE" ? t`Waiting for trades…` : t`No trades yet.`}</div>;
}

export const fundingTradesWidget: WidgetDef = {
  type: "funding-trades",
  title: msg`Funding trades`,
  component: FundingTrades,
  defaultSize: { w: 7, h: 15 },
  minSize: { w: 4, h: 6 },
};
