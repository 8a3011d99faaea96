/**
 * One `stats1` series as a uPlot line chart. The chart is made in an effect (uPlot needs the DOM,
 * so the prerendered page shows the figure's caption and summary, not a canvas), sized to its box
 * and redrawn on a theme change; React never holds the uPlot instance. The summary under the chart
 * states the latest value, the range and the period in words, for those who cannot see the canvas.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { Locale, StatsRow } from "../../protocol";
import { intlTag } from "../i18n";
import { observeTheme, readPalette } from "../theme/canvas-palette";
import * as css from "./site-live.css";

const HEIGHT = 260;

export function StatsChart({
  rows,
  label,
  format,
}: {
  readonly rows: readonly StatsRow[];
  /** The series' name in the legend and the chart's accessible name. */
  readonly label: string;
  readonly format: (v: number) => string;
}) {
  const { i18n } = useLingui();
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = host.current;
    if (!el || rows.length === 0) return;
    const data: uPlot.AlignedData = [rows.map((r) => r.mts / 1000), rows.map((r) => r.value)];
    const make = () => {
      const p = readPalette(el);
      const axis = { stroke: p.muted, grid: { stroke: p.border, width: 1 }, ticks: { stroke: p.border, width: 1 } };
      return new uPlot(
        {
          width: Math.max(280, el.clientWidth),
          height: HEIGHT,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          series: [
            {},
            { label, stroke: p.accent, width: 2, fill: p.upSoft, value: (_u, v) => (v == null ? "–" : format(v)) },
          ],
          axes: [axis, { ...axis, size: 70, values: (_u, vals) => vals.map((v) => format(v)) }],
        },
        data,
        el,
      );
    };
    let chart = make();
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    const stopTheme = observeTheme(() => {
      chart.destroy();
      chart = make();
    });
    return () => {
      resize.disconnect();
      stopTheme();
      chart.destroy();
    };
  }, [rows, label, format]);

  const values = rows.map((r) => r.value);
  const first = rows[0];
  const latest = rows[rows.length - 1];
  const day = new Intl.DateTimeFormat(intlTag(i18n.locale as Locale), { dateStyle: "medium", timeZone: "UTC" });
  const last = latest ? format(latest.value) : "";
  const lowest = format(Math.min(...values));
  const highest = format(Math.max(...values));
  const from = first ? day.format(first.mts) : "";
  const to = latest ? day.format(latest.mts) : "";
  return (
    <figure className={css.chartFigure}>
      <div ref={host} className={css.chart} role="img" aria-label={label} />
      {latest && (
        <figcaption className={css.muted}>
          <Trans>
            Latest: {last}. Lowest {lowest}, highest {highest}, from {from} to {to} (UTC).
          </Trans>
        </figcaption>
      )}
    </figure>
  );
}
