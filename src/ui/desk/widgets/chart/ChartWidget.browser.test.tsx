import { I18nProvider } from "@lingui/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { CANDLE_VIEW_STRIDE, toSignificant, type CandlesView, type StatusView } from "../../../../protocol";
import { activateLocale, i18n } from "../../../i18n";
import type { CandleTimeframe } from "../../../settings/schema";
import { resetSettings, settings, updateSetting } from "../../../settings/store";
import { applyTheme } from "../../../theme/theme";
import { ref } from "valtio";
import { accountStore } from "../../account-store";
import { alerts, resetAlerts } from "../../alerts";
import { order, position } from "../../../test-support/account-records";
import type { CandleChart } from "./candle-chart";
import { TIMEFRAME_MS } from "./candles-data";
import type { ChartSource } from "./chart-source";
import { ChartWidget } from "./ChartWidget";
import { readPalette } from "./palette";
import { formatTime } from "../tables/format";
import { clearKnownTimeframes, forgetWidgetTimeframe, loadWidgetTimeframe } from "./widget-timeframe";
import { accountView } from "../../../test-support/account";

const HEALTH = { lastUpdateAt: 0, messagesPerSecond: 0, resyncs: 0, checksumsOk: 0, checksumsFailed: 0, stale: false };
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);

/** Deterministic candles ending at NOW: a gentle walk with a fixed volume marker for history pages. */
function synth(tf: CandleTimeframe, count: number, endMts: number, volume?: number): Float64Array {
  const step = TIMEFRAME_MS[tf];
  const last = Math.floor(endMts / step) * step;
  const out = new Float64Array(count * CANDLE_VIEW_STRIDE);
  for (let i = 0; i < count; i++) {
    const mts = last - (count - 1 - i) * step;
    const k = mts / step;
    const open = 30000 + 400 * Math.sin(k / 9) + 37 * ((k * 7) % 5);
    const close = open + (k % 2 === 0 ? 45 : -38) + 10 * Math.cos(k);
    const high = Math.max(open, close) + 20 + (k % 3) * 6;
    const low = Math.min(open, close) - 18 - (k % 4) * 5;
    out.set([mts, open, close, high, low, volume ?? 1 + (k % 7) * 3], i * CANDLE_VIEW_STRIDE);
  }
  return out;
}

interface Fake {
  readonly source: ChartSource;
  readonly requests: string[];
  readonly aborted: string[];
  readonly history: { key: string; tf: CandleTimeframe; end: number }[];
  readonly live: Map<string, Float64Array>;
  readonly status: ((view: StatusView) => void)[];
  readonly onView: Map<string, (view: CandlesView) => void>;
}

function fakeSource(liveCount = 300): Fake {
  const fake: Fake = {
    requests: [],
    aborted: [],
    history: [],
    live: new Map(),
    status: [],
    onView: new Map(),
    source: {
      candles(key, _throttle, onView, signal) {
        fake.requests.push(key);
        fake.onView.set(key, onView);
        signal.addEventListener("abort", () => fake.aborted.push(key));
        const tf = key.split(":")[1] as CandleTimeframe;
        const rows = synth(tf, liveCount, NOW);
        fake.live.set(key, rows);
        const view: CandlesView = {
          handle: "h",
          key,
          status: "SUBSCRIBED",
          rows,
          count: liveCount,
          health: HEALTH,
          version: 1,
        };
        // Like the bridge: the first view arrives after the subscription resolves.
        queueMicrotask(() => onView(view));
        return Promise.resolve();
      },
      status(_key, onView) {
        fake.status.push(onView);
        return Promise.resolve();
      },
      loadHistory(key, tf, end) {
        fake.history.push({ key, tf, end });
        // Two pages, then the start of the market.
        return Promise.resolve(fake.history.length > 2 ? new Float64Array(0) : synth(tf, 200, end - 1, 7777));
      },
    },
  };
  return fake;
}

async function mount(fake: Fake, onChart?: (chart: CandleChart | null) => void, widgetKey = "widget/chart/1") {
  return await render(
    <I18nProvider i18n={i18n}>
      <div style={{ width: 900, height: 560, display: "flex", flexDirection: "column" }}>
        <ChartWidget
          widgetKey={widgetKey}
          pair="BTCUSD"
          symbol="tBTCUSD"
          source={fake.source}
          {...(onChart ? { onChart } : {})}
        />
      </div>
    </I18nProvider>,
  );
}

function canvas(): HTMLCanvasElement {
  const c = document.querySelector<HTMLCanvasElement>('[data-testid="chart-plot"] canvas');
  if (!c) throw new Error("no canvas");
  return c;
}

function over(): HTMLElement {
  const o = document.querySelector<HTMLElement>('[data-testid="chart-plot"] .u-over');
  if (!o) throw new Error("no uPlot overlay");
  return o;
}

/** A CSS colour as [r, g, b], through a canvas so any syntax the theme uses works. */
function rgb(colour: string): [number, number, number] {
  const c = document.createElement("canvas");
  c.width = c.height = 1;
  const ctx = c.getContext("2d") as CanvasRenderingContext2D;
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  return [d[0] as number, d[1] as number, d[2] as number];
}

function countPixels(colour: string, tolerance = 3): number {
  const c = canvas();
  const [r, g, b] = rgb(colour);
  const data = (c.getContext("2d") as CanvasRenderingContext2D).getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4)
    if (
      Math.abs((data[i] as number) - r) <= tolerance &&
      Math.abs((data[i + 1] as number) - g) <= tolerance &&
      Math.abs((data[i + 2] as number) - b) <= tolerance &&
      (data[i + 3] as number) > 250
    )
      n++;
  return n;
}

function palette() {
  return readPalette(document.querySelector('[data-testid="chart-widget"]') as Element);
}

function mouse(type: string, target: EventTarget, x: number, y: number, init: MouseEventInit = {}): void {
  target.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, clientX: x, clientY: y, ...init }));
}

function legendValue(field: string): string {
  return document.querySelector(`[data-testid="chart-legend"] [data-field="${field}"]`)?.textContent ?? "";
}

beforeAll(async () => {
  await activateLocale("en");
  await page.viewport(1000, 700);
});

const WIDGET_KEYS = ["widget/chart/1", "widget/chart/2"];

beforeEach(async () => {
  await Promise.all(WIDGET_KEYS.map(forgetWidgetTimeframe));
  clearKnownTimeframes();
  resetSettings();
  resetAlerts();
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
});

afterEach(() => {
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
  accountStore.view = null;
});

describe("chart widget", () => {
  it("draws candles from the live view and shows OHLCV of the candle under the crosshair", async () => {
    const fake = fakeSource();
    await mount(fake);
    await expect.poll(() => fake.requests).toEqual(["trade:30m:tBTCUSD"]);
    const p = palette();
    await expect.poll(() => countPixels(p.up)).toBeGreaterThan(300);
    expect(countPixels(p.down)).toBeGreaterThan(300);

    // Without a crosshair the legend shows the newest candle.
    const rows = fake.live.get("trade:30m:tBTCUSD") as Float64Array;
    const lastAt = (fake.live.get("trade:30m:tBTCUSD")?.length ?? 0) - CANDLE_VIEW_STRIDE;
    await expect.poll(() => legendValue("close")).toBe(toSignificant(rows[lastAt + 2] as number));

    // Hover a third of the way in: the legend switches to that candle (the view spans 120 candles
    // plus 2 empty slots on the right, ending at the newest candle).
    const o = over();
    const rect = o.getBoundingClientRect();
    const frac = 1 / 3;
    mouse("mousemove", o, rect.left + rect.width * frac, rect.top + rect.height / 2);
    const n = rows.length / CANDLE_VIEW_STRIDE;
    const expected = Math.round(n - 1 + 2 - 122 * (1 - frac));
    await expect.poll(() => legendValue("open")).not.toBe(toSignificant(rows[lastAt + 1] as number));
    const shown = ["open", "high", "low", "close"].map(legendValue);
    const matches: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = i * CANDLE_VIEW_STRIDE;
      const wire = [rows[r + 1], rows[r + 3], rows[r + 4], rows[r + 2]].map((v) => toSignificant(v as number));
      if (wire.every((v, k) => v === shown[k])) matches.push(i);
    }
    expect(matches.some((i) => Math.abs(i - expected) <= 1)).toBe(true);
    expect(legendValue("volume")).not.toBe("");
  });

  it("re-requests the new key on a timeframe change and drops the old stream", async () => {
    const fake = fakeSource();
    await mount(fake);
    await expect.poll(() => fake.requests).toEqual(["trade:30m:tBTCUSD"]);
    await page.getByTestId("chart-tf-1h").click();
    await expect.poll(() => fake.requests).toEqual(["trade:30m:tBTCUSD", "trade:1h:tBTCUSD"]);
    expect(fake.aborted).toEqual(["trade:30m:tBTCUSD"]);
    await expect.element(page.getByTestId("chart-tf-1h")).toHaveAttribute("aria-pressed", "true");
  });

  it("keeps a timeframe per widget, persisted under its widget key; the setting is the default for the others", async () => {
    const one = fakeSource();
    const first = await mount(one, undefined, "widget/chart/1");
    await expect.poll(() => one.requests).toEqual(["trade:30m:tBTCUSD"]);
    await page.getByTestId("chart-tf-6h").click();
    await expect.poll(() => one.requests.at(-1)).toBe("trade:6h:tBTCUSD");
    // The shared setting is not this widget's choice.
    expect(settings.chart_interval).toBe("30m");
    await expect.poll(() => loadWidgetTimeframe("widget/chart/1")).toBe("6h");

    // A new default moves the widgets that never chose, not this one.
    updateSetting("chart_interval", "1D");
    const two = fakeSource();
    await mount(two, undefined, "widget/chart/2");
    await expect.poll(() => two.requests).toEqual(["trade:1D:tBTCUSD"]);
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    expect(one.requests.at(-1)).toBe("trade:6h:tBTCUSD");

    // Mounted again from storage alone (nothing in memory): its own timeframe from the first request.
    await first.unmount();
    clearKnownTimeframes();
    const again = fakeSource();
    await mount(again, undefined, "widget/chart/1");
    await expect.poll(() => again.requests).toEqual(["trade:6h:tBTCUSD"]);
    await expect
      .element(page.getByTestId("chart-widget").last().getByTestId("chart-tf-6h"))
      .toHaveAttribute("aria-pressed", "true");
  });

  it("asks for older candles when the user pans past the oldest one, and draws them", async () => {
    const fake = fakeSource();
    await mount(fake);
    const p = palette();
    await expect.poll(() => countPixels(p.up)).toBeGreaterThan(300);
    expect(fake.history).toEqual([]); // 300 candles cover the first view

    const o = over();
    const rect = o.getBoundingClientRect();
    const y = rect.top + rect.height / 2;
    // Drag right by three plot widths: 360 candles into the past, beyond the 300 we have.
    mouse("mousedown", o, rect.left + 20, y, { button: 0 });
    for (let k = 1; k <= 6; k++) mouse("mousemove", window, rect.left + 20 + (rect.width * 3 * k) / 6, y);
    mouse("mouseup", window, rect.left + 20 + rect.width * 3, y);

    const rows = fake.live.get("trade:30m:tBTCUSD") as Float64Array;
    await expect.poll(() => fake.history.length).toBeGreaterThan(0);
    expect(fake.history[0]).toEqual({ key: "trade:30m:tBTCUSD", tf: "30m", end: (rows[0] as number) - 1 });

    // The loaded page is drawn: hovering the left part of the view shows one of its candles
    // (history candles carry volume 7777).
    mouse("mousemove", o, rect.left + rect.width * 0.6, y);
    await expect.poll(() => legendValue("volume")).toBe("7.78k");
    await expect.poll(() => countPixels(p.up)).toBeGreaterThan(300);
  });

  it("draws alert lines, adds alerts from the field and by Alt+click, and removes them", async () => {
    const fake = fakeSource();
    await mount(fake);
    const p = palette();
    await expect.poll(() => countPixels(p.up)).toBeGreaterThan(300);
    expect(countPixels(p.warning)).toBe(0);

    const rows = fake.live.get("trade:30m:tBTCUSD") as Float64Array;
    const lastClose = rows[rows.length - CANDLE_VIEW_STRIDE + 2] as number;
    const level = Math.round(lastClose + 60);
    await page.getByTestId("chart-alert-input").fill(String(level));
    await page.getByTestId("chart-alert-add").click();
    expect(alerts.byPair["BTCUSD"]).toEqual([level]);
    await expect.poll(() => page.getByTestId("chart-alert").element().textContent).toContain(toSignificant(level));
    // A dashed line across most of the plot, plus its label.
    await expect.poll(() => countPixels(p.warning)).toBeGreaterThan(300);

    // The same price again is refused (once per pair).
    await page.getByTestId("chart-alert-input").fill(String(level));
    await page.getByTestId("chart-alert-add").click();
    expect(alerts.byPair["BTCUSD"]).toEqual([level]);
    await expect.element(page.getByTestId("chart-alert-input")).toHaveAttribute("aria-invalid", "true");

    // Alt+click adds one at the price under the pointer.
    const o = over();
    const rect = o.getBoundingClientRect();
    mouse("mousedown", o, rect.left + 200, rect.top + 60, { button: 0, altKey: true });
    mouse("mouseup", window, rect.left + 200, rect.top + 60, { button: 0, altKey: true });
    expect(alerts.byPair["BTCUSD"]).toHaveLength(2);
    const clicked = alerts.byPair["BTCUSD"]?.[1] as number;
    expect(clicked).toBeGreaterThan(lastClose - 2000);
    expect(clicked).toBeLessThan(lastClose + 2000);

    // Hidden by the setting, back when on, gone when removed.
    updateSetting("show_chart_alerts", false);
    await expect.poll(() => countPixels(p.warning)).toBe(0);
    updateSetting("show_chart_alerts", true);
    await expect.poll(() => countPixels(p.warning)).toBeGreaterThan(300);
    for (const b of page.getByTestId("chart-alert").getByRole("button").elements()) (b as HTMLButtonElement).click();
    await expect.poll(() => alerts.byPair["BTCUSD"]).toBeUndefined();
    await expect.poll(() => countPixels(p.warning)).toBe(0);
  });

  it("draws lines for the open orders and the position of its own market, following the account and the settings", async () => {
    const fake = fakeSource();
    let chart: CandleChart | null = null;
    await mount(fake, (c) => (chart = c));
    const p = palette();
    await expect.poll(() => countPixels(p.up)).toBeGreaterThan(300);
    const lines = () =>
      (chart?.overlay().lines ?? [])
        .filter((l) => l.kind !== "alert")
        .map((l) => [l.kind, l.price, l.label] as const)
        .sort((a, b) => a[1] - b[1]);
    expect(lines()).toEqual([]);
    const accentBefore = countPixels(p.accent);

    const rows = fake.live.get("trade:30m:tBTCUSD") as Float64Array;
    const close = Math.round(rows[rows.length - CANDLE_VIEW_STRIDE + 2] as number);
    accountStore.view = ref(
      accountView({
        orders: [
          order({ id: 1, symbol: "tBTCUSD", amount: 0.5, price: close - 100 }),
          order({ id: 2, symbol: "tBTCUSD", amount: -1.25, original: -2, price: close + 100 }),
          // Another market's order, and a market order without a price: no line.
          order({ id: 3, symbol: "tETHUSD", amount: 1, price: close - 50 }),
          order({ id: 4, symbol: "tBTCUSD", amount: 1, price: null, type: "EXCHANGE MARKET" }),
        ],
        positions: [
          { ...position({ id: 7, pair: "tBTCUSD", amount: -0.3, base: close + 40 }), liqPrice: close + 300 },
          position({ id: 8, pair: "tETHUSD", amount: 2, base: close - 40 }),
        ],
      }),
    );
    await expect.poll(lines).toEqual([
      ["buy", close - 100, "Buy 0.5"],
      ["position", close + 40, "Position -0.3"],
      ["sell", close + 100, "Sell 1.25"],
      // 1 % above the short's mark: near it, so the label warns (docs/product-rules.md#liquidation-warning).
      ["liquidation", close + 300, "⚠ Liq. price"],
    ]);
    // Beside the canvas, in words: the chip a screen reader (and the journey) can read.
    await expect
      .element(page.getByTestId("chart-liquidation"))
      .toHaveTextContent(`⚠ Liq. price ${toSignificant(close + 300)}`);
    // Drawn: the position's solid line across the plot in the accent colour.
    await expect.poll(() => countPixels(p.accent)).toBeGreaterThan(accentBefore + 300);

    // The settings hide each group; the account's next view replaces the lines.
    updateSetting("show_chart_orders", false);
    await expect.poll(() => lines().map((l) => l[0])).toEqual(["position", "liquidation"]);
    updateSetting("show_chart_positions", false);
    await expect.poll(lines).toEqual([]);
    await expect.poll(() => countPixels(p.accent)).toBeLessThan(accentBefore + 50);
    updateSetting("show_chart_orders", true);
    updateSetting("show_chart_positions", true);
    accountStore.view = ref(
      accountView({ orders: [order({ id: 1, symbol: "tBTCUSD", amount: 2, price: close - 10 })] }),
    );
    await expect.poll(lines).toEqual([["buy", close - 10, "Buy 2"]]);
    accountStore.view = null;
    await expect.poll(lines).toEqual([]);
  });

  it("draws liquidation markers of its own market only", async () => {
    const fake = fakeSource();
    await mount(fake);
    const p = palette();
    await expect.poll(() => countPixels(p.up)).toBeGreaterThan(300);
    await expect.poll(() => fake.status.length).toBe(1);
    const rows = fake.live.get("trade:30m:tBTCUSD") as Float64Array;
    const r = rows.length - 10 * CANDLE_VIEW_STRIDE;
    const liq = (symbol: string, posId: number) => [
      "pos",
      posId,
      rows[r] as number,
      null,
      symbol,
      0.5,
      rows[r + 1] as number,
      null,
      1,
      0,
      null,
      rows[r + 4] as number,
    ];
    const push = (payload: unknown) =>
      fake.status[0]?.({ handle: "s", key: "liq:global", status: "SUBSCRIBED", payload, health: HEALTH, version: 1 });
    push([liq("tETHUSD", 1)]);
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    expect(countPixels(p.warning)).toBe(0);
    push([liq("tBTCUSD", 2)]);
    await expect.poll(() => countPixels(p.warning)).toBeGreaterThan(20);
  });

  it("zooms with the wheel, pans away from the live edge, zooms a Shift+drag selection, and returns on double click", async () => {
    const fake = fakeSource();
    let chart: CandleChart | null = null;
    await mount(fake, (c) => (chart = c));
    const p = palette();
    await expect.poll(() => countPixels(p.up)).toBeGreaterThan(300);
    const view = () => (chart as CandleChart).view();
    const tf = TIMEFRAME_MS["30m"];
    const rows = fake.live.get("trade:30m:tBTCUSD") as Float64Array;
    const lastMts = rows[rows.length - CANDLE_VIEW_STRIDE] as number;
    expect(view()).toMatchObject({ follow: true, max: lastMts + 2 * tf, min: lastMts + 2 * tf - 120 * tf });

    // Wheel in at the live edge: fewer candles, the newest one stays in place.
    const o = over();
    const rect = o.getBoundingClientRect();
    const y = rect.top + rect.height / 2;
    o.dispatchEvent(
      new WheelEvent("wheel", { bubbles: true, cancelable: true, deltaY: -100, clientX: rect.left + 100, clientY: y }),
    );
    expect(view().follow).toBe(true);
    expect(view().max).toBe(lastMts + 2 * tf);
    expect(Math.round((view().max - view().min) / tf)).toBe(Math.round(120 / 1.15));

    // Drag a quarter of the width into the past: no longer following.
    const before = view();
    mouse("mousedown", o, rect.left + 100, y, { button: 0 });
    mouse("mousemove", window, rect.left + 100 + rect.width / 4, y);
    mouse("mouseup", window, rect.left + 100 + rect.width / 4, y);
    expect(view().follow).toBe(false);
    expect(view().max).toBeCloseTo(before.max - (before.max - before.min) / 4, -3);

    // A new candle does not move a view the user has moved.
    const panned = view();
    const next = new Float64Array(rows.length + CANDLE_VIEW_STRIDE);
    next.set(rows);
    next.set([lastMts + tf, 30000, 30100, 30150, 29950, 5], rows.length);
    fake.onView.get("trade:30m:tBTCUSD")?.({
      handle: "h",
      key: "trade:30m:tBTCUSD",
      status: "SUBSCRIBED",
      rows: next,
      count: next.length / CANDLE_VIEW_STRIDE,
      health: HEALTH,
      version: 2,
    });
    await expect.poll(() => view().candles).toBe(rows.length / CANDLE_VIEW_STRIDE + 1);
    expect(view()).toMatchObject({ min: panned.min, max: panned.max, follow: false });

    // Shift+drag selects a quarter of the plot and zooms into it.
    mouse("mousedown", o, rect.left + rect.width / 4, y, { button: 0, shiftKey: true });
    mouse("mousemove", o, rect.left + rect.width / 2, y, { shiftKey: true, movementX: 1 }); // uPlot ignores moves without movement
    mouse("mouseup", document, rect.left + rect.width / 2, y, { shiftKey: true });
    const ratio = () => (view().max - view().min) / (panned.max - panned.min);
    await expect.poll(ratio).toBeLessThan(0.3);
    expect(ratio()).toBeGreaterThan(0.2);
    expect(view().follow).toBe(false);

    // Double click: back to the live edge, now one candle later.
    mouse("dblclick", o, rect.left + 100, y);
    expect(view()).toMatchObject({ follow: true, max: lastMts + 3 * tf });
  });

  it("pans and zooms from the keyboard", async () => {
    const fake = fakeSource();
    let chart: CandleChart | null = null;
    await mount(fake, (c) => (chart = c));
    await expect.poll(() => countPixels(palette().up)).toBeGreaterThan(300);
    const view = () => (chart as CandleChart).view();
    const span = () => view().max - view().min;
    const start = view();
    (document.querySelector('[data-testid="chart-plot"]') as HTMLElement).focus();
    await userEvent.keyboard("{ArrowLeft}");
    expect(view().follow).toBe(false);
    expect(view().max).toBeCloseTo(start.max - (start.max - start.min) * 0.1, -3);
    await userEvent.keyboard("-");
    expect(span()).toBeCloseTo((start.max - start.min) * 1.25, -3);
    await userEvent.keyboard("{Home}");
    expect(view()).toMatchObject({ follow: true, min: start.min, max: start.max });
    await userEvent.keyboard("+");
    expect(view().follow).toBe(true);
    expect(span()).toBeCloseTo((start.max - start.min) / 1.25, -3);
  });

  it("redraws with the light theme's colours when the theme class changes", async () => {
    const fake = fakeSource();
    await mount(fake);
    const dark = palette();
    await expect.poll(() => countPixels(dark.up)).toBeGreaterThan(300);
    applyTheme(document.documentElement, { name: "default", mode: "light", scheme: "default" }, true);
    const light = palette();
    expect(light.border).not.toBe(dark.border);
    await expect.poll(() => countPixels(light.border, 1)).toBeGreaterThan(500);
    expect(countPixels(dark.border, 1)).toBeLessThan(50);
    // red-up scheme: the rising candles take the down colour.
    applyTheme(document.documentElement, { name: "default", mode: "light", scheme: "red-up" }, true);
    const redUp = palette();
    expect(redUp.up).toBe(light.down);
  });
  it("shows times in the user's format and UTC offset, redrawing the same chart when they change", async () => {
    const fake = fakeSource();
    const charts: (CandleChart | null)[] = [];
    await mount(fake, (c) => charts.push(c));
    await expect.poll(() => countPixels(palette().up)).toBeGreaterThan(300);
    const chart = charts[0] as CandleChart;
    const rows = fake.live.get("trade:30m:tBTCUSD") as Float64Array;
    const lastMts = rows[rows.length - CANDLE_VIEW_STRIDE] as number;
    // The tables' default format, in UTC.
    await expect.poll(() => legendValue("time")).toBe(formatTime(lastMts, "YY-MM-DD HH:mm:ss", 0));

    updateSetting("utc_offset", 3);
    updateSetting("time_format", "DD.MM.YYYY HH:mm");
    await expect.poll(() => legendValue("time")).toBe(formatTime(lastMts, "DD.MM.YYYY HH:mm", 3));
    // A day starts at the user's midnight: every label that carries a date (but the first, which
    // always does) is at 00:00 in the user's zone, and the dates are in the pattern's form.
    await expect
      .poll(() =>
        chart
          .axisLabels()
          .slice(1)
          .filter((l) => l.text.includes("\n"))
          .map((l) => l.text.split("\n")[0]),
      )
      .toContain("00:00");
    for (const l of chart.axisLabels().slice(1)) {
      const [time, date] = l.text.split("\n");
      if (date !== undefined) expect(time).toBe("00:00");
      expect(time).toMatch(/^\d\d:\d\d$/);
    }
    expect(chart.axisLabels()[0]?.text).toMatch(/^\d\d:\d\d\n\d\d\.\d\d\.\d{4}$/);

    // Another offset moves the day boundary with it: the same candles, other hours.
    updateSetting("utc_offset", -7);
    await expect.poll(() => legendValue("time")).toBe(formatTime(lastMts, "DD.MM.YYYY HH:mm", -7));
    for (const l of chart.axisLabels().slice(1)) if (l.text.includes("\n")) expect(l.text).toMatch(/^00:00\n/);
    // Never recreated: one chart, no unmount.
    expect(charts).toEqual([chart]);
  });

  it("never lets the first time label leave the canvas, whatever the pan", async () => {
    const fake = fakeSource();
    let chart: CandleChart | null = null;
    await mount(fake, (c) => (chart = c));
    await expect.poll(() => countPixels(palette().up)).toBeGreaterThan(300);
    const c = canvas();
    const ctx = c.getContext("2d") as CanvasRenderingContext2D;
    const strip = Math.round(40 * devicePixelRatio);
    /** Anything drawn in the canvas' first two pixel columns under the plot is a clipped label. */
    const leftEdgeInk = (): number => {
      const d = ctx.getImageData(0, c.height - strip, 2, strip).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if ((d[i] as number) > 0) n++;
      return n;
    };
    const frame = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    let shifted = 0;
    // Away from the live edge first (a small pan there snaps back to it).
    (chart as unknown as CandleChart).panBy(-0.05);
    // Small pans across more than one tick interval: a tick passes the plot's left edge.
    for (let k = 0; k < 24; k++) {
      (chart as unknown as CandleChart).panBy(-0.006);
      await frame();
      const labels = (chart as unknown as CandleChart).axisLabels();
      expect(labels.length).toBeGreaterThan(2);
      const first = labels[0] as (typeof labels)[number];
      expect(first.left).toBeGreaterThanOrEqual(0);
      expect(first.left + first.width).toBeLessThanOrEqual(c.width / devicePixelRatio);
      // The first label keeps the date of the first day in view.
      expect(first.text).toMatch(/\n\d\d-\d\d-\d\d$/);
      expect(leftEdgeInk()).toBe(0);
      // Centred on its tick, this label would have started left of the canvas: moved inwards.
      if (first.tick - first.width / 2 < 0) shifted++;
    }
    // The sweep did reach the edge case (a label pushed against the edge).
    expect(shifted).toBeGreaterThan(0);
  });

  it("pans with one finger and pinch-zooms with two (touch pointer events)", async () => {
    const fake = fakeSource();
    let chart: CandleChart | null = null;
    await mount(fake, (c) => (chart = c));
    await expect.poll(() => countPixels(palette().up)).toBeGreaterThan(300);
    const view = () => (chart as CandleChart).view();
    const o = over();
    const rect = o.getBoundingClientRect();
    const y = rect.top + rect.height / 2;
    const touch = (type: string, id: number, x: number, yy = y, pointerType = "touch") =>
      (type === "pointerdown" ? o : window).dispatchEvent(
        new PointerEvent(type, {
          bubbles: true,
          cancelable: true,
          pointerId: id,
          pointerType,
          isPrimary: id === 1,
          clientX: x,
          clientY: yy,
        }),
      );

    // A mouse's pointer events are left to the mouse path: no pan from them here.
    const start = view();
    touch("pointerdown", 9, rect.left + 100, y, "mouse");
    touch("pointermove", 9, rect.left + 300, y, "mouse");
    touch("pointerup", 9, rect.left + 300, y, "mouse");
    expect(view()).toMatchObject({ min: start.min, max: start.max, follow: true });

    // One finger right by a quarter of the plot: a quarter of the window into the past.
    touch("pointerdown", 1, rect.left + 100, y);
    touch("pointermove", 1, rect.left + 100 + rect.width / 8, y);
    touch("pointermove", 1, rect.left + 100 + rect.width / 4, y);
    touch("pointerup", 1, rect.left + 100 + rect.width / 4, y);
    const panned = view();
    expect(panned.follow).toBe(false);
    const span = start.max - start.min;
    expect(panned.max).toBeCloseTo(start.max - span / 4, -3);
    expect(panned.max - panned.min).toBeCloseTo(span, -3);

    // Two fingers 100 px apart spread to 200 px: half the time in view, the time under their
    // midpoint stays under it.
    const mid = rect.left + rect.width / 2;
    const timeAt = (x: number, v: { min: number; max: number }) =>
      v.min + ((x - rect.left) / rect.width) * (v.max - v.min);
    const anchor = timeAt(mid, panned);
    touch("pointerdown", 1, mid - 50, y);
    touch("pointerdown", 2, mid + 50, y);
    touch("pointermove", 1, mid - 75, y);
    touch("pointermove", 2, mid + 75, y);
    touch("pointermove", 1, mid - 100, y);
    touch("pointermove", 2, mid + 100, y);
    const zoomed = view();
    expect((zoomed.max - zoomed.min) / span).toBeCloseTo(0.5, 2);
    expect(timeAt(mid, zoomed)).toBeCloseTo(anchor, -3);
    expect(zoomed.follow).toBe(false);

    // Pinching back in: more time in view again.
    touch("pointermove", 1, mid - 25, y);
    touch("pointermove", 2, mid + 25, y);
    const out = view();
    expect((out.max - out.min) / span).toBeCloseTo(2, 2);
    touch("pointerup", 2, mid + 25, y);

    // The finger left on the plot pans from where it is, without a jump.
    const before = view();
    touch("pointermove", 1, mid - 25 + rect.width / 10, y);
    const after = view();
    expect(after.max - after.min).toBeCloseTo(before.max - before.min, -3);
    expect(after.max).toBeCloseTo(before.max - (before.max - before.min) / 10, -3);
    touch("pointerup", 1, mid - 25 + rect.width / 10, y);
  });
});
