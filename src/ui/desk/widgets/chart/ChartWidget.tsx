/**
 * The candles chart widget: timeframes, the OHLCV legend, price alerts, and the imperative chart
 * (candle-chart.ts) that draws the worker's candles. React renders the toolbar and the legend's
 * labels only; candles, the crosshair values, and the lines for orders, positions, alerts and
 * liquidations reach the canvas without a React render: no tick data in React or valtio state.
 */
import { useLingui } from "@lingui/react/macro";
import {
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import "uplot/dist/uPlot.min.css";
import { subscribe, useSnapshot } from "valtio";
import {
  CANDLE_FIELDS,
  CANDLE_VIEW_STRIDE,
  liquidationCodec,
  toSignificant,
  validPositiveNumber,
  type AccountView,
} from "../../../../protocol";
import { log } from "../../../log";
import { appScheduler } from "../../../scheduler";
import { CANDLE_TIMEFRAMES, type CandleTimeframe } from "../../../settings/schema";
import { settings } from "../../../settings/store";
import { accountStore } from "../../account-store";
import { addAlert, alerts, checkAlerts, removeAlert } from "../../alerts";
import { liquidationPrice, nearLiquidation } from "../../margin-risk";
import type { WidgetProps } from "../../widget";
import { CandleChart, type LiquidationMarker, type PriceLine } from "./candle-chart";
import { candleKey } from "./candles-data";
import * as css from "./chart.css";
import { ChartSourceContext, marketChartSource, type ChartSource } from "./chart-source";
import { observeTheme, readPalette } from "./palette";
import { knownWidgetTimeframe, loadWidgetTimeframe, saveWidgetTimeframe } from "./widget-timeframe";

export interface ChartWidgetProps extends WidgetProps {
  /** Overrides the data source (tests); otherwise the context's, otherwise the app's bridge. */
  readonly source?: ChartSource;
  /** Receives the imperative chart once it exists (and null on unmount): for tools and tests. */
  readonly onChart?: (chart: CandleChart | null) => void;
  /**
   * The candle key's market part when it is more than the symbol: a funding chart's
   * `fUSD:a30:p2:p30` (docs/protocol.md#candles). Default: the symbol.
   */
  readonly series?: string;
  /**
   * False for a chart of rates (the funding desk): no price alerts, order and position lines or
   * liquidation markers, which belong to a traded pair. Default true.
   */
  readonly priceTools?: boolean;
  /** More controls at the start of the toolbar (the funding chart's period: seen first on a phone). */
  readonly tools?: ReactNode;
  /** The plot's accessible name when it is not a price chart. */
  readonly plotLabel?: string;
}

/** Minimum ms between two candle views from the worker. */
const CANDLES_THROTTLE_MS = 100;
/** Liquidation markers kept per chart (newest win). */
const MAX_MARKERS = 500;
const LIQ_KEY = "liq:global";

type LineLabels = {
  readonly buy: (amount: string) => string;
  readonly sell: (amount: string) => string;
  readonly position: (amount: string) => string;
  readonly liquidation: string;
};

/** 0.5 rather than 0.50000: five significant digits without the padding zeros. */
function shortAmount(value: number): string {
  return String(Number(toSignificant(value)));
}

function accountLines(
  view: AccountView | null,
  symbol: string,
  show: { orders: boolean; positions: boolean },
  l: LineLabels,
): PriceLine[] {
  if (!view) return [];
  const lines: PriceLine[] = [];
  if (show.orders)
    for (const o of view.orders) {
      if (o.symbol !== symbol || o.price === null || o.price <= 0) continue;
      const amount = shortAmount(Math.abs(o.amount));
      lines.push({
        kind: o.amount >= 0 ? "buy" : "sell",
        price: o.price,
        label: o.amount >= 0 ? l.buy(amount) : l.sell(amount),
      });
    }
  if (show.positions)
    for (const p of view.positions) {
      if (p.pair !== symbol || p.amount === 0) continue;
      lines.push({ kind: "position", price: p.basePrice, label: l.position(shortAmount(p.amount)) });
      if (p.liqPrice !== null && p.liqPrice > 0)
        lines.push({
          kind: "liquidation",
          price: p.liqPrice,
          // Near it, the line says so in its label too (docs/product-rules.md#liquidation-warning).
          label: nearLiquidation(p) ? `⚠ ${l.liquidation}` : l.liquidation,
        });
    }
  return lines;
}

/** Liquidation rows of one status payload (one row or a list of rows) that concern `symbol`. */
function liquidationsOf(payload: unknown, symbol: string): LiquidationMarker[] {
  if (!Array.isArray(payload)) return [];
  let rows: unknown[] = Array.isArray(payload[0]) ? payload : [payload];
  // The REST form wraps each row in one more array; accept it too.
  rows = rows.map((r) => (Array.isArray(r) && r.length === 1 && Array.isArray(r[0]) ? (r[0] as unknown) : r));
  const out: LiquidationMarker[] = [];
  for (const row of rows) {
    const d = liquidationCodec.decode(row);
    if (!d.ok || d.value.symbol !== symbol) continue;
    const price = d.value.liquidationPrice ?? d.value.basePrice;
    if (price === null || !(price > 0)) continue;
    out.push({ mts: d.value.mts, price, long: d.value.amount > 0 });
  }
  return out;
}

/** The plot element's property holding `{ view() }` (CandleChart's visible range) while a chart is drawn. */
const CHART_INSPECTOR = "chartInspector";

export function ChartWidget({
  widgetKey,
  pair,
  symbol,
  source,
  onChart,
  series = symbol,
  priceTools = true,
  tools,
  plotLabel,
}: ChartWidgetProps) {
  const { t } = useLingui();
  const contextSource = useContext(ChartSourceContext);
  const src = useMemo(() => source ?? contextSource ?? marketChartSource(), [source, contextSource]);
  const s = useSnapshot(settings);
  // This widget's own timeframe: undefined while it is read from storage, null when it never chose
  // one (then the chart_interval setting applies).
  const [own, setOwn] = useState<{ key: string; tf: CandleTimeframe | null } | undefined>(() => {
    const known = knownWidgetTimeframe(widgetKey);
    return known === undefined ? undefined : { key: widgetKey, tf: known };
  });
  const ownReady = own?.key === widgetKey;
  const timeframe = (ownReady ? own.tf : null) ?? s.chart_interval;
  const timeFormat = useMemo(
    () => ({ pattern: s.time_format, utcOffset: s.utc_offset }),
    [s.time_format, s.utc_offset],
  );
  const alertSnap = useSnapshot(alerts);
  const pairAlerts = alertSnap.byPair[pair] ?? [];

  const plotRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const legendRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<CandleChart | null>(null);
  /** What the history loader and Alt+click read: the latest props without recreating the chart. */
  const live = useRef({ src, key: candleKey(timeframe, series), timeframe, timeFormat, pair, onChart, priceTools });
  useLayoutEffect(() => {
    live.current = { src, key: candleKey(timeframe, series), timeframe, timeFormat, pair, onChart, priceTools };
  });
  const overlay = useRef<{ account: PriceLine[]; alerts: PriceLine[]; markers: LiquidationMarker[] }>({
    account: [],
    alerts: [],
    markers: [],
  });
  const [hasData, setHasData] = useState(false);
  const [alertText, setAlertText] = useState("");
  const [alertInvalid, setAlertInvalid] = useState(false);

  const pushOverlay = (): void => {
    const o = overlay.current;
    chartRef.current?.setOverlay({ lines: [...o.account, ...o.alerts], markers: o.markers });
  };

  // The chart lives as long as the widget; props reach it through the effects below.
  useLayoutEffect(() => {
    const plot = plotRef.current;
    const host = hostRef.current;
    const legend = legendRef.current;
    if (!plot || !host || !legend) return;
    const cell = (field: string): HTMLElement => {
      const el = legend.querySelector<HTMLElement>(`[data-field="${field}"]`);
      if (!el) throw new Error(`chart legend: no ${field} cell`);
      return el;
    };
    const scheduler = appScheduler.child();
    const chart = new CandleChart({
      host,
      legend: {
        time: cell("time"),
        open: cell("open"),
        high: cell("high"),
        low: cell("low"),
        close: cell("close"),
        volume: cell("volume"),
      },
      timers: scheduler,
      timeframe: live.current.timeframe,
      palette: readPalette(host),
      timeFormat: live.current.timeFormat,
      width: plot.clientWidth,
      height: plot.clientHeight,
      loadHistory: (end, signal) => {
        const l = live.current;
        return l.src.loadHistory(l.key, l.timeframe, end, signal);
      },
      onPriceClick: (price) => {
        if (live.current.priceTools) void addAlert(live.current.pair, Number(toSignificant(price)));
      },
    });
    chartRef.current = chart;
    live.current.onChart?.(chart);
    // As the book's root carries its inspector: the visible range for the E2E suite and for anyone
    // debugging a page (a canvas has no DOM to read it from).
    const inspected = plot as unknown as Record<string, unknown>;
    inspected[CHART_INSPECTOR] = { view: () => chart.view() };
    const resize = new ResizeObserver(() => chart.setSize(plot.clientWidth, plot.clientHeight));
    resize.observe(plot);
    const stopTheme = observeTheme(() => chart.setPalette(readPalette(host)));
    return () => {
      resize.disconnect();
      stopTheme();
      chart.destroy();
      scheduler.dispose();
      delete inspected[CHART_INSPECTOR];
      chartRef.current = null;
      live.current.onChart?.(null);
    };
  }, []);

  useEffect(() => {
    if (ownReady) return;
    let stale = false;
    void loadWidgetTimeframe(widgetKey).then((tf) => {
      if (!stale) setOwn({ key: widgetKey, tf });
    });
    return () => {
      stale = true;
    };
  }, [widgetKey, ownReady]);

  const chooseTimeframe = (tf: CandleTimeframe): void => {
    saveWidgetTimeframe(widgetKey, tf);
    setOwn({ key: widgetKey, tf });
  };

  // The user's time settings redraw the same chart.
  useEffect(() => {
    chartRef.current?.setTimeFormat(timeFormat);
  }, [timeFormat]);

  // The live candles of the current key, once the widget knows its timeframe (no subscription to a
  // default it is about to leave).
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || !ownReady) return;
    const key = candleKey(timeframe, series);
    chart.reset(timeframe);
    setHasData(false);
    const controller = new AbortController();
    let seen = false;
    src
      .candles(
        key,
        CANDLES_THROTTLE_MS,
        (view) => {
          if (controller.signal.aborted || view.key !== key) return;
          const rows = view.rows.subarray(0, view.count * CANDLE_VIEW_STRIDE);
          chart.setLive(rows);
          if (view.count > 0) {
            if (priceTools)
              checkAlerts(pair, rows[(view.count - 1) * CANDLE_VIEW_STRIDE + CANDLE_FIELDS.close] as number);
            if (!seen) {
              seen = true;
              setHasData(true);
            }
          }
        },
        controller.signal,
      )
      .catch((err: unknown) => log.warn("candles subscription failed", key, err));
    return () => controller.abort();
  }, [src, series, timeframe, pair, ownReady, priceTools]);

  // Liquidation markers of this market from the global liquidations feed.
  useEffect(() => {
    overlay.current.markers = [];
    pushOverlay();
    if (!s.show_liquidations || !priceTools) return;
    const controller = new AbortController();
    const seen = new Set<string>();
    src
      .status(
        LIQ_KEY,
        (view) => {
          if (controller.signal.aborted) return;
          let added = false;
          for (const m of liquidationsOf(view.payload, symbol)) {
            const id = `${m.mts}:${m.price}:${m.long ? 1 : 0}`;
            if (seen.has(id)) continue;
            seen.add(id);
            overlay.current.markers.push(m);
            added = true;
          }
          if (!added) return;
          const markers = overlay.current.markers;
          if (markers.length > MAX_MARKERS) markers.splice(0, markers.length - MAX_MARKERS);
          pushOverlay();
        },
        controller.signal,
      )
      .catch((err: unknown) => log.warn("liquidations subscription failed", err));
    return () => controller.abort();
  }, [src, symbol, s.show_liquidations, priceTools]);

  // Open orders and positions, from the account store without re-rendering the widget.
  const showOrders = s.show_chart_orders && priceTools;
  const showPositions = s.show_chart_positions && priceTools;
  useEffect(() => {
    const labels: LineLabels = {
      buy: (amount) => t`Buy ${amount}`,
      sell: (amount) => t`Sell ${amount}`,
      position: (amount) => t`Position ${amount}`,
      liquidation: t`Liq. price`,
    };
    const update = (): void => {
      overlay.current.account = accountLines(
        accountStore.view,
        symbol,
        { orders: showOrders, positions: showPositions },
        labels,
      );
      pushOverlay();
    };
    update();
    return subscribe(accountStore, update);
  }, [symbol, showOrders, showPositions, t]);

  // Alert lines follow the alerts store (already a render dependency for the chips).
  const showAlerts = s.show_chart_alerts && priceTools;
  const alertLabel = t`Alert`;
  const alertKey = pairAlerts.join(",");
  useEffect(() => {
    overlay.current.alerts = showAlerts
      ? (alerts.byPair[pair] ?? []).map((price) => ({ kind: "alert" as const, price, label: alertLabel }))
      : [];
    pushOverlay();
  }, [pair, showAlerts, alertLabel, alertKey]);

  const onPlotKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const chart = chartRef.current;
    if (!chart || e.altKey || e.ctrlKey || e.metaKey) return;
    const step = e.shiftKey ? 0.5 : 0.1;
    switch (e.key) {
      case "ArrowLeft":
        chart.panBy(-step);
        break;
      case "ArrowRight":
        chart.panBy(step);
        break;
      case "+":
      case "=":
        chart.zoomBy(1 / 1.25);
        break;
      case "-":
        chart.zoomBy(1.25);
        break;
      case "Home":
        chart.resetView();
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const submitAlert = (e: FormEvent): void => {
    e.preventDefault();
    const text = alertText.trim().replace(",", ".");
    const ok = validPositiveNumber(text, false) && addAlert(pair, Number(text));
    setAlertInvalid(!ok);
    if (ok) setAlertText("");
  };

  return (
    <div className={css.root} data-testid="chart-widget">
      <div className={css.toolbar}>
        {tools}
        <div className={css.group} role="group" aria-label={t`Timeframe`}>
          {CANDLE_TIMEFRAMES.map((tf) => (
            <button
              key={tf}
              type="button"
              className={css.tfButton}
              aria-pressed={tf === timeframe}
              data-testid={`chart-tf-${tf}`}
              onClick={() => chooseTimeframe(tf)}
            >
              {tf}
            </button>
          ))}
        </div>
        {priceTools ? <span className={css.separator} /> : null}
        {priceTools ? (
          <form className={css.group} onSubmit={submitAlert}>
            <input
              className={css.alertInput}
              inputMode="decimal"
              value={alertText}
              placeholder={t`Alert price`}
              aria-label={t`Alert price`}
              title={t`Alt+click on the chart sets an alert at that price`}
              aria-invalid={alertInvalid}
              data-testid="chart-alert-input"
              onChange={(e) => {
                setAlertText(e.target.value);
                setAlertInvalid(false);
              }}
            />
            <button type="submit" className={css.addButton} data-testid="chart-alert-add">
              {t`Add alert`}
            </button>
          </form>
        ) : null}
        {(priceTools ? pairAlerts : []).map((price) => {
          const priceText = toSignificant(price);
          return (
            <span key={price} className={css.chip} data-testid="chart-alert">
              {priceText}
              <button
                type="button"
                className={css.chipRemove}
                aria-label={t`Remove alert at ${priceText}`}
                title={t`Remove alert at ${priceText}`}
                onClick={() => removeAlert(pair, price)}
              >
                ×
              </button>
            </span>
          );
        })}
      </div>
      <div
        ref={plotRef}
        className={css.plot}
        style={{ height: s.chart_height }}
        data-testid="chart-plot"
        role="region"
        tabIndex={0}
        aria-label={
          plotLabel ?? t`Price chart. Arrow keys pan, plus and minus zoom, Home returns to the latest candles.`
        }
        onKeyDown={onPlotKey}
      >
        <div ref={legendRef} className={css.legend} data-testid="chart-legend">
          <span data-field="time" className={css.legendTime} />
          <span>{t({ message: "O", comment: "Chart legend: abbreviation of the candle's open" })}</span>
          <span data-field="open" />
          <span>{t({ message: "H", comment: "Chart legend: abbreviation of the candle's high" })}</span>
          <span data-field="high" />
          <span>{t({ message: "L", comment: "Chart legend: abbreviation of the candle's low" })}</span>
          <span data-field="low" />
          <span>{t({ message: "C", comment: "Chart legend: abbreviation of the candle's close" })}</span>
          <span data-field="close" />
          <span>{t({ message: "V", comment: "Chart legend: abbreviation of the candle's volume" })}</span>
          <span data-field="volume" />
        </div>
        <LiquidationChips symbol={symbol} />
        <div ref={hostRef} className={css.host} />
        {hasData ? null : <div className={css.empty}>{t`Loading candles…`}</div>}
      </div>
    </div>
  );
}

/**
 * The liquidation prices of the market's positions as text over the plot, under the legend (the
 * canvas says nothing to a screen reader), in the danger colour with a warning sign once the price
 * is near one.
 */
function LiquidationChips(props: { readonly symbol: string }) {
  const { t } = useLingui();
  const account = useSnapshot(accountStore);
  const shown = useSnapshot(settings).show_chart_positions;
  const positions = account.view?.positions ?? [];
  // With the position lines switched off, their words go too.
  if (!shown || !positions.some((p) => p.pair === props.symbol && p.amount !== 0 && liquidationPrice(p) !== null))
    return null;
  return (
    <div className={css.liqOverlay}>
      {positions.map((p) => {
        const liq = p.pair === props.symbol && p.amount !== 0 ? liquidationPrice(p) : null;
        if (liq === null) return null;
        const near = nearLiquidation(p);
        const price = toSignificant(liq);
        return (
          <span
            key={p.id ?? p.pair}
            className={near ? css.liqChipNear : css.liqChip}
            data-testid="chart-liquidation"
            data-near={near}
          >
            {near ? `⚠ ${t`Liq. price`} ${price}` : `${t`Liq. price`} ${price}`}
          </span>
        );
      })}
    </div>
  );
}
