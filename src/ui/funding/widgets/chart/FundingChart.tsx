/**
 * The funding chart: the desk's candles chart (timeframes, legend, history, pan and zoom) on a
 * currency's funding candles, with the period or range of periods to chart in its toolbar (the
 * `funding_chart_period` setting). Rates have no price alerts, orders or liquidations to draw.
 */
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useId } from "react";
import { useSnapshot } from "valtio";
import { settings, updateSetting } from "../../../settings/store";
import { chartRowsFor } from "../../../desk/widgets/chart/chart-def";
import { ChartWidget } from "../../../desk/widgets/chart/ChartWidget";
import * as chartCss from "../../../desk/widgets/chart/chart.css";
import type { WidgetDef, WidgetProps } from "../../../desk/widget";
import { CHART_HEIGHT } from "../../../../protocol";
import { periodLabel } from "../funding-format";
import { FUNDING_CHART_PERIODS, fundingSeries, periodFromValue, periodValue } from "./funding-candles";
import * as css from "./funding-chart.css";

export function FundingChart(props: WidgetProps) {
  const { t } = useLingui();
  const s = useSnapshot(settings);
  const id = useId();
  const chosen = periodFromValue(periodValue(s.funding_chart_period)) ?? FUNDING_CHART_PERIODS[0] ?? [2, 30];
  const tools = (
    <>
      <label className={css.label} htmlFor={id}>
        {t`Days`}
      </label>
      <select
        id={id}
        className={css.select}
        value={periodValue(chosen)}
        onChange={(e) => {
          const next = periodFromValue(e.target.value);
          if (next) updateSetting("funding_chart_period", [next[0], next[1]]);
        }}
      >
        {FUNDING_CHART_PERIODS.map((p) => (
          <option key={periodValue(p)} value={periodValue(p)}>
            {periodLabel(p[0], p[1])}
          </option>
        ))}
      </select>
      <span className={chartCss.separator} />
    </>
  );
  return (
    <ChartWidget
      {...props}
      series={fundingSeries(props.symbol, chosen)}
      priceTools={false}
      tools={tools}
      plotLabel={t`Rate chart. Arrow keys pan, plus and minus zoom, Home returns to the latest candles.`}
    />
  );
}

export const fundingChartWidget: WidgetDef = {
  type: "funding-chart",
  title: msg`Funding chart`,
  component: FundingChart,
  defaultSize: { w: 11, h: chartRowsFor(CHART_HEIGHT) },
  minSize: { w: 6, h: 10 },
};
