/**
 * The imperative candlestick chart behind the React widget: one uPlot instance, drawn by our own
 * draw hook (uPlot has no candles), with zoom, pan, history paging, price lines and markers.
 *
 * Data flow (coalesce, then draw once): `setLive`, `setOverlay`, `setPalette` and `setTimeFormat` only store
 * what they get and mark the chart dirty; one animation frame from the injected scheduler merges the
 * rows and calls uPlot's setData at most once, whatever the rate of the views. React never holds the
 * uPlot instance or any candle.
 *
 * Interaction: drag pans, Shift+drag selects a time range to zoom into, the wheel zooms around the
 * pointer, a double click returns to the live edge, Alt+click reports the price under the pointer;
 * on a touch screen one finger pans and two fingers pinch-zoom.
 * While the view's right edge is at the newest candle the chart "follows" it as candles arrive; any
 * pan or zoom away from it stops following until the user comes back (or double-clicks).
 */
import { i18n } from "@lingui/core";
import uPlot from "uplot";
import type { Cancel, Timers } from "../../../../protocol";
import { abbreviate, toSignificant } from "../../../../protocol";
import { log } from "../../../log";
import type { CandleTimeframe } from "../../../settings/schema";
import { COL, type CandleColumns, mergeRows, TIMEFRAME_MS, toColumns } from "./candles-data";
import type { ChartPalette } from "./palette";
import {
  legendTime,
  placeAxisLabels,
  timeAxisLabels,
  zonedDate,
  type PlacedLabel,
  type TimeFormat,
} from "./time-labels";

export type PriceLineKind = "buy" | "sell" | "position" | "liquidation" | "alert";

/** A horizontal line across the plot with a label at the right edge. */
export interface PriceLine {
  readonly kind: PriceLineKind;
  readonly price: number;
  readonly label: string;
}

/** A liquidation at its time and price; `long` when a long position was liquidated (sold). */
export interface LiquidationMarker {
  readonly mts: number;
  readonly price: number;
  readonly long: boolean;
}

export interface ChartOverlay {
  readonly lines: readonly PriceLine[];
  readonly markers: readonly LiquidationMarker[];
}

/** The legend's value cells (the labels around them are React's); the chart writes their text. */
export interface LegendCells {
  readonly time: HTMLElement;
  readonly open: HTMLElement;
  readonly high: HTMLElement;
  readonly low: HTMLElement;
  readonly close: HTMLElement;
  readonly volume: HTMLElement;
}

export interface CandleChartOptions {
  /** The element uPlot mounts into. */
  readonly host: HTMLElement;
  readonly legend: LegendCells;
  readonly timers: Timers;
  readonly timeframe: CandleTimeframe;
  readonly palette: ChartPalette;
  /** The user's `time_format` and `utc_offset` for the time axis and the legend. */
  readonly timeFormat: TimeFormat;
  readonly width: number;
  readonly height: number;
  /** A page of older candles (stride-6 rows, oldest first) ending before `end` (ms). */
  readonly loadHistory: (end: number, signal: AbortSignal) => Promise<Float64Array>;
  /** Alt+click on the plot: the price under the pointer. */
  readonly onPriceClick?: (price: number) => void;
}

/** Candles in view when the chart opens or returns to the live edge. */
export const DEFAULT_VISIBLE = 120;
const MIN_VISIBLE = 10;
const MAX_VISIBLE = 5000;
/** Empty candle slots kept right of the newest one while following. */
const RIGHT_PAD = 2;
const WHEEL_STEP = 1.15;
const VOLUME_ALPHA = 0.3;
/** Pointer travel (css px) under which a press is a click, not a pan. */
const CLICK_SLOP = 3;
/** Time-axis geometry (css px), set on uPlot's axis and used by our own label drawing. */
const AXIS_FONT_PX = 11;
const AXIS_TICK_PX = 10;
const AXIS_GAP_PX = 5;
const AXIS_LINE_GAP = 1.5;
/** Least room between two time labels (css px). */
const AXIS_LABEL_GAP_PX = 10;
/** uPlot's default least tick spacing (css px), kept for narrow labels. */
const AXIS_MIN_SPACE_PX = 50;
/** Room kept between a time label's box and the canvas' edge: glyphs ink slightly past their box. */
const AXIS_EDGE_PX = 2;
/** Fingers closer than this (css px) give no usable pinch ratio. */
const PINCH_MIN_PX = 16;
/** Label widths kept per font (the labels of a few screens). */
const MEASURE_CACHE = 512;

const DAY_S = 86_400;

const EMPTY: CandleColumns = [
  new Float64Array(0),
  new Float64Array(0),
  new Float64Array(0),
  new Float64Array(0),
  new Float64Array(0),
  new Float64Array(0),
];

function num(a: ArrayLike<number>, i: number): number {
  return a[i] as number;
}

export class CandleChart {
  readonly #o: CandleChartOptions;
  readonly #u: uPlot;
  #timeframe: CandleTimeframe;
  #palette: ChartPalette;
  #format: TimeFormat;
  /**
   * The time axis' splits (s) from uPlot's last axis pass and their label texts, made there: a
   * redraw for the overlay or the palette reuses them. We draw them (drawTimeLabels).
   */
  #axisSplits: readonly number[] = [];
  #axisTexts: readonly string[] = [];
  #axisLabels: readonly PlacedLabel[] = [];
  /** Label widths in canvas px for `#measureFont`: labels repeat from frame to frame. */
  readonly #widths = new Map<string, number>();
  #measureFont = "";
  #spaceKey = "";
  #space = AXIS_MIN_SPACE_PX;
  #overlay: ChartOverlay = { lines: [], markers: [] };

  #history: Float64Array = new Float64Array(0);
  #live: Float64Array = new Float64Array(0);
  #data: CandleColumns = EMPTY;

  #dataDirty = false;
  #drawDirty = false;
  #axesDirty = false;
  #frame: Cancel | null = null;

  #follow = true;
  #span: number;
  #viewMin = 0;
  #viewMax = 0;
  /** True while the chart itself sets the x scale (so the hook can tell user selections apart). */
  #applying = false;

  #historyAbort: AbortController | null = null;
  #historyExhausted = false;
  /** Bumped by a timeframe change, so a late history page of the old timeframe is dropped. */
  #generation = 0;

  readonly #detach: (() => void)[] = [];
  /** Removes the window listeners of the pan in progress. */
  #endPan: (() => void) | null = null;
  #destroyed = false;

  constructor(options: CandleChartOptions) {
    this.#o = options;
    this.#timeframe = options.timeframe;
    this.#palette = options.palette;
    this.#format = options.timeFormat;
    this.#span = DEFAULT_VISIBLE * this.#tfSec();
    this.#u = new uPlot(this.#opts(options.width, options.height), EMPTY, options.host);
    this.#bindWheel();
    this.#bindTouch();
  }

  /** The live series from the worker (stride-6 rows, oldest first). */
  setLive(rows: Float64Array): void {
    this.#live = rows;
    this.#markData();
  }

  /** A new series (timeframe or market): forgets the candles and returns to the live edge. */
  reset(timeframe: CandleTimeframe): void {
    this.#timeframe = timeframe;
    this.#generation++;
    this.#historyAbort?.abort();
    this.#historyAbort = null;
    this.#historyExhausted = false;
    this.#history = new Float64Array(0);
    this.#live = new Float64Array(0);
    this.#follow = true;
    this.#span = DEFAULT_VISIBLE * this.#tfSec();
    this.#markData();
  }

  setOverlay(overlay: ChartOverlay): void {
    this.#overlay = overlay;
    this.#markDraw();
  }

  setPalette(palette: ChartPalette): void {
    this.#palette = palette;
    this.#markDraw();
  }

  /**
   * New time settings: the same chart redraws its axis (ticks move to the new zone's hours and
   * days) and its legend.
   */
  setTimeFormat(format: TimeFormat): void {
    if (format.pattern === this.#format.pattern && format.utcOffset === this.#format.utcOffset) return;
    this.#format = format;
    this.#axesDirty = true;
    this.#schedule();
  }

  setSize(width: number, height: number): void {
    if (width <= 0 || height <= 0) return;
    this.#u.setSize({ width: Math.floor(width), height: Math.floor(height) });
  }

  /** Back to the newest candles at the default zoom. */
  resetView(): void {
    this.#follow = true;
    this.#span = DEFAULT_VISIBLE * this.#tfSec();
    this.#applyView();
  }

  /** The visible time range in ms and whether the chart follows the live edge (for tests and tools). */
  view(): { readonly min: number; readonly max: number; readonly follow: boolean; readonly candles: number } {
    return {
      min: this.#viewMin * 1000,
      max: this.#viewMax * 1000,
      follow: this.#follow,
      candles: this.#data[0].length,
    };
  }

  /**
   * The time-axis labels as last drawn, in css px from the canvas' left edge: each label's box and
   * the x of its tick (for tests and tools).
   */
  axisLabels(): readonly {
    readonly text: string;
    readonly left: number;
    readonly width: number;
    readonly tick: number;
  }[] {
    const px = uPlot.pxRatio;
    return this.#axisLabels.map((l) => ({
      text: l.lines.join("\n"),
      left: l.left / px,
      width: l.width / px,
      tick: l.x / px,
    }));
  }

  /** The price lines and markers last set, as they will be drawn (for tests and tools). */
  overlay(): ChartOverlay {
    return this.#overlay;
  }

  /** Pans the view by a fraction of its width (negative: into the past). */
  panBy(fraction: number): void {
    const d = (this.#viewMax - this.#viewMin) * fraction;
    this.#setView(this.#viewMin + d, this.#viewMax + d);
  }

  /** Zooms by `factor` (> 1: more candles), around the centre, or at the live edge while following. */
  zoomBy(factor: number): void {
    if (this.#lastX() === null || !(factor > 0)) return;
    const span = (this.#viewMax - this.#viewMin) * factor;
    if (this.#follow) {
      this.#span = this.#clampSpan(span);
      this.#applyView();
      return;
    }
    const mid = (this.#viewMin + this.#viewMax) / 2;
    this.#setView(mid - span / 2, mid + span / 2);
  }

  destroy(): void {
    this.#destroyed = true;
    this.#frame?.();
    this.#historyAbort?.abort();
    this.#endPan?.();
    for (const off of this.#detach) off();
    this.#u.destroy();
  }

  // --- frame ------------------------------------------------------------------------------------

  #markData(): void {
    this.#dataDirty = true;
    this.#schedule();
  }

  #markDraw(): void {
    this.#drawDirty = true;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#frame || this.#destroyed) return;
    this.#frame = this.#o.timers.frame(() => {
      this.#frame = null;
      this.#flush();
    });
  }

  #flush(): void {
    if (this.#dataDirty) {
      this.#dataDirty = false;
      this.#drawDirty = false;
      this.#axesDirty = false;
      this.#data = toColumns(mergeRows(this.#history, this.#live));
      this.#u.batch(() => {
        this.#u.setData(this.#data, false);
        this.#applyView();
      });
      this.#writeLegend(this.#u.cursor.idx ?? null);
    } else if (this.#axesDirty) {
      this.#axesDirty = false;
      this.#drawDirty = false;
      this.#u.redraw(false, true);
      this.#writeLegend(this.#u.cursor.idx ?? null);
    } else if (this.#drawDirty) {
      this.#drawDirty = false;
      this.#u.redraw(false, false);
    }
  }

  // --- view -------------------------------------------------------------------------------------

  #tfSec(): number {
    return TIMEFRAME_MS[this.#timeframe] / 1000;
  }

  #lastX(): number | null {
    const xs = this.#data[COL.x];
    return xs.length > 0 ? num(xs, xs.length - 1) : null;
  }

  /** Sets the x scale from the follow state or the stored window. */
  #applyView(): void {
    const last = this.#lastX();
    if (last === null) return;
    if (this.#follow) {
      this.#viewMax = last + RIGHT_PAD * this.#tfSec();
      this.#viewMin = this.#viewMax - this.#span;
    }
    this.#setScale(this.#viewMin, this.#viewMax);
  }

  #setScale(min: number, max: number): void {
    this.#applying = true;
    try {
      this.#u.setScale("x", { min, max });
    } finally {
      this.#applying = false;
    }
    this.#maybeLoadHistory();
  }

  #clampSpan(span: number): number {
    const tf = this.#tfSec();
    if (!Number.isFinite(span) || span <= 0) return DEFAULT_VISIBLE * tf;
    return Math.min(MAX_VISIBLE * tf, Math.max(MIN_VISIBLE * tf, span));
  }

  /** A user-driven window: clamps the zoom, decides whether it still follows the live edge. */
  #setView(min: number, max: number): void {
    const tf = this.#tfSec();
    const span = this.#clampSpan(max - min);
    const mid = (min + max) / 2;
    this.#viewMin = mid - span / 2;
    this.#viewMax = mid + span / 2;
    this.#span = span;
    const last = this.#lastX();
    this.#follow = last !== null && this.#viewMax >= last + tf * 0.5;
    if (this.#follow) this.#applyView();
    else this.#setScale(this.#viewMin, this.#viewMax);
  }

  #maybeLoadHistory(): void {
    const xs = this.#data[COL.x];
    if (xs.length === 0 || this.#historyAbort || this.#historyExhausted || this.#destroyed) return;
    if (this.#viewMin >= num(xs, 0)) return;
    const end = num(xs, 0) * 1000 - 1;
    const controller = new AbortController();
    this.#historyAbort = controller;
    const generation = this.#generation;
    this.#o
      .loadHistory(end, controller.signal)
      .then((rows) => {
        if (controller.signal.aborted || generation !== this.#generation) return;
        this.#historyAbort = null;
        // Nothing older than what we have: the start of the market's history.
        if (rows.length === 0 || num(rows, 0) >= end) {
          this.#historyExhausted = true;
          return;
        }
        this.#history = mergeRows(rows, this.#history);
        this.#markData();
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted || generation !== this.#generation) return;
        this.#historyAbort = null;
        // A failed page is not retried on every pan frame; the next timeframe change retries.
        this.#historyExhausted = true;
        log.warn("candle history failed", err);
      });
  }

  // --- uPlot options ----------------------------------------------------------------------------

  #opts(width: number, height: number): uPlot.Options {
    const muted = (): string => this.#palette.muted;
    const grid = (): string => this.#palette.border;
    const font = `${AXIS_FONT_PX}px ${this.#palette.font}`;
    const hidden: uPlot.Series = { scale: "price", paths: () => null, points: { show: false } };
    return {
      width: Math.max(1, Math.floor(width)),
      height: Math.max(1, Math.floor(height)),
      legend: { show: false },
      padding: [8, 0, 0, 8],
      // Ticks on the hours and days of the user's UTC offset, not the browser's zone.
      tzDate: (ts) => zonedDate(ts, this.#format.utcOffset),
      cursor: {
        points: { show: false },
        drag: { x: true, y: false, setScale: true },
        bind: {
          mousedown: (_u, _targ, handler) => (e) => {
            if (e.button === 0 && !e.shiftKey) {
              this.#startPan(e);
              return null;
            }
            return handler(e);
          },
          dblclick: () => () => {
            this.resetView();
            return null;
          },
        },
      },
      scales: {
        x: { time: true },
        price: {
          range: (_u, min, max) => {
            if (min == null || max == null) return [0, 1];
            const span = max - min || Math.abs(max) * 0.01 || 1;
            // Room at the bottom for the volume bars, a little at the top for the legend.
            return [min - span * 0.3, max + span * 0.12];
          },
        },
        vol: { range: (_u, _min, max) => [0, (max || 1) * 5] },
      },
      series: [{}, hidden, hidden, hidden, hidden, { scale: "vol", paths: () => null, points: { show: false } }],
      axes: [
        {
          stroke: muted,
          font,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid, width: 1, size: AXIS_TICK_PX },
          gap: AXIS_GAP_PX,
          space: () => this.#timeLabelSpace(),
          // The labels are ours (drawTimeLabels): uPlot centres every label on its tick, which cut
          // the first one off at the canvas' left edge. uPlot keeps the ticks and the grid.
          values: (_u, splits, _axis, _space, incr) => {
            this.#axisSplits = splits;
            this.#axisTexts = timeAxisLabels(splits, incr, this.#format);
            return splits.map(() => null);
          },
        },
        {
          scale: "price",
          side: 1,
          size: 72,
          stroke: muted,
          font,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid, width: 1 },
          // As many decimals as the tick step needs (100 → none, 0.5 → one), never an exponent.
          values: (_u, splits, _axis, _space, incr) => {
            const decimals = Math.min(12, Math.max(0, Math.ceil(-Math.log10(incr || 1) - 1e-9)));
            return splits.map((v) => v.toFixed(decimals));
          },
        },
      ],
      hooks: {
        // With the default direction ("inherit") every fillText of a canvas in the document asks
        // for the canvas's computed style, and brings the page's pending style work with it: the
        // axes' labels cost ~0.1–0.8 ms each on a busy desk, against ~3 µs with a fixed direction
        // (bench:ui). Numbers and dates read left to right in every locale; the labels' alignment
        // is explicit. A resize resets the context's state, hence on every draw.
        drawClear: [
          (u) => {
            u.ctx.direction = "ltr";
          },
        ],
        draw: [
          (u) => {
            this.#draw(u);
            this.#drawTimeLabels(u);
          },
        ],
        setCursor: [(u) => this.#writeLegend(u.cursor.idx ?? null)],
        setScale: [
          (u, key) => {
            if (key !== "x" || this.#applying) return;
            // uPlot commits scale changes in a microtask, so this hook also sees the chart's own
            // changes after the fact: only a window that differs from ours is a user's Shift+drag
            // selection (zoomed in by uPlot itself).
            const { min, max } = xScale(u);
            if (min == null || max == null) return;
            const eps = (this.#viewMax - this.#viewMin) * 1e-9;
            if (Math.abs(min - this.#viewMin) <= eps && Math.abs(max - this.#viewMax) <= eps) return;
            this.#setView(min, max);
          },
        ],
      },
    };
  }

  // --- interaction ------------------------------------------------------------------------------

  #startPan(down: MouseEvent): void {
    const u = this.#u;
    const startX = down.clientX;
    const startY = down.clientY;
    const min = this.#viewMin;
    const max = this.#viewMax;
    const widthCss = u.over.clientWidth || 1;
    let moved = false;
    const move = (e: MouseEvent): void => {
      const dx = e.clientX - startX;
      if (!moved && Math.abs(dx) < CLICK_SLOP && Math.abs(e.clientY - startY) < CLICK_SLOP) return;
      moved = true;
      const dv = (dx * (max - min)) / widthCss;
      this.#setView(min - dv, max - dv);
    };
    const up = (e: MouseEvent): void => {
      this.#endPan?.();
      if (!moved && e.altKey && this.#o.onPriceClick) {
        const top = e.clientY - u.over.getBoundingClientRect().top;
        const price = u.posToVal(top, "price");
        if (Number.isFinite(price)) this.#o.onPriceClick(price);
      }
    };
    this.#endPan?.();
    window.addEventListener("mousemove", move);
    window.addEventListener("mouseup", up);
    this.#endPan = () => {
      window.removeEventListener("mousemove", move);
      window.removeEventListener("mouseup", up);
      this.#endPan = null;
    };
  }

  #bindWheel(): void {
    const over = this.#u.over;
    const onWheel = (e: WheelEvent): void => {
      if (this.#lastX() === null || e.deltaY === 0) return;
      e.preventDefault();
      const rect = over.getBoundingClientRect();
      const frac = Math.min(1, Math.max(0, (e.clientX - rect.left) / (rect.width || 1)));
      const factor = e.deltaY > 0 ? WHEEL_STEP : 1 / WHEEL_STEP;
      const span = (this.#viewMax - this.#viewMin) * factor;
      if (this.#follow) {
        // Zooming at the live edge keeps the newest candle in place.
        this.#span = this.#clampSpan(span);
        this.#applyView();
        return;
      }
      const anchor = this.#viewMin + frac * (this.#viewMax - this.#viewMin);
      this.#setView(anchor - frac * span, anchor + (1 - frac) * span);
    };
    over.addEventListener("wheel", onWheel, { passive: false });
    this.#detach.push(() => over.removeEventListener("wheel", onWheel));
  }

  /**
   * Touch: one finger pans, two fingers pinch-zoom around their midpoint (and pan with it). Pointer
   * events of type "touch" only: mouse and pen keep uPlot's mouse path above, which would otherwise
   * see the same gesture twice. The overlay's `touch-action: none` (chart.css.ts) keeps the browser
   * from scrolling or zooming the page under the gesture.
   */
  #bindTouch(): void {
    const over = this.#u.over;
    const points = new Map<number, { x: number; y: number }>();
    /** The gesture's start: pointer positions and the window, re-taken when a finger comes or goes. */
    let start: { x: number; dist: number; min: number; max: number } | null = null;
    let moved = false;
    const rebase = (): void => {
      const ps = [...points.values()];
      const a = ps[0];
      const b = ps[1];
      if (!a) {
        start = null;
        return;
      }
      const left = over.getBoundingClientRect().left;
      start = b
        ? { x: (a.x + b.x) / 2 - left, dist: Math.hypot(a.x - b.x, a.y - b.y), min: this.#viewMin, max: this.#viewMax }
        : { x: a.x - left, dist: 0, min: this.#viewMin, max: this.#viewMax };
    };
    const onDown = (e: PointerEvent): void => {
      if (e.pointerType !== "touch" || this.#lastX() === null) return;
      // No emulated mouse events (uPlot would start its own drag) and no text selection.
      e.preventDefault();
      if (points.size >= 2) return;
      try {
        over.setPointerCapture(e.pointerId);
      } catch {
        // Synthetic pointers (tests, tools) have no capture; the window listeners still see them.
      }
      points.set(e.pointerId, { x: e.clientX, y: e.clientY });
      moved = false;
      rebase();
    };
    const onMove = (e: PointerEvent): void => {
      const p = points.get(e.pointerId);
      if (!p || !start) return;
      p.x = e.clientX;
      p.y = e.clientY;
      const ps = [...points.values()];
      const a = ps[0] as { x: number; y: number };
      const b = ps[1];
      const rect = over.getBoundingClientRect();
      const width = rect.width || 1;
      const span0 = start.max - start.min;
      if (!b) {
        const dx = a.x - rect.left - start.x;
        if (!moved && Math.abs(dx) < CLICK_SLOP) return;
        moved = true;
        const dv = (dx * span0) / width;
        this.#setView(start.min - dv, start.max - dv);
        return;
      }
      moved = true;
      // The time under the fingers' first midpoint stays under their midpoint; the window scales
      // by how far apart they moved.
      const dist = Math.max(PINCH_MIN_PX, Math.hypot(a.x - b.x, a.y - b.y));
      const span = (span0 * Math.max(PINCH_MIN_PX, start.dist)) / dist;
      const anchor = start.min + (start.x / width) * span0;
      const mid = (a.x + b.x) / 2 - rect.left;
      const min = anchor - (mid / width) * span;
      this.#setView(min, min + span);
    };
    const onUp = (e: PointerEvent): void => {
      if (!points.delete(e.pointerId)) return;
      // The remaining finger carries on as a pan from where it is.
      rebase();
    };
    over.addEventListener("pointerdown", onDown);
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onUp);
    this.#detach.push(() => {
      over.removeEventListener("pointerdown", onDown);
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      window.removeEventListener("pointercancel", onUp);
    });
  }

  // --- legend -----------------------------------------------------------------------------------

  /** Writes the candle under the crosshair (or the newest one) into the legend. */
  #writeLegend(cursorIdx: number | null): void {
    const d = this.#data;
    const n = d[COL.x].length;
    const { time, open: o, high: h, low: l, close: c, volume: v } = this.#o.legend;
    const cells = [o, h, l, c, v];
    if (n === 0) {
      time.textContent = "";
      for (const cell of cells) cell.textContent = "–";
      return;
    }
    const i = cursorIdx !== null && cursorIdx >= 0 && cursorIdx < n ? cursorIdx : n - 1;
    const open = num(d[COL.open], i);
    const close = num(d[COL.close], i);
    const colour = close >= open ? this.#palette.up : this.#palette.down;
    time.textContent = legendTime(num(d[COL.x], i) * 1000, this.#format);
    const texts = [
      toSignificant(open),
      toSignificant(num(d[COL.high], i)),
      toSignificant(num(d[COL.low], i)),
      toSignificant(close),
      abbreviate(num(d[COL.volume], i)),
    ];
    cells.forEach((cell, k) => {
      cell.textContent = texts[k] as string;
      cell.style.color = colour;
    });
  }

  // --- drawing ----------------------------------------------------------------------------------

  #draw(u: uPlot): void {
    const d = this.#data;
    const n = d[COL.x].length;
    const ctx = u.ctx;
    const { left, top, width, height } = u.bbox;
    const px = uPlot.pxRatio;
    const p = this.#palette;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    if (n > 0) this.#drawCandles(u, ctx, px);
    this.#drawMarkers(u, ctx, px);
    this.#drawLines(u, ctx, px, p);
    ctx.restore();
  }

  /** A label's width in canvas px, in `font`; measured once per text on a detached canvas. */
  #measure(font: string, text: string): number {
    if (font !== this.#measureFont || this.#widths.size > MEASURE_CACHE) {
      this.#widths.clear();
      this.#measureFont = font;
    }
    let w = this.#widths.get(text);
    if (w === undefined) {
      const ctx = measureContext();
      ctx.font = font;
      w = ctx.measureText(text).width;
      this.#widths.set(text, w);
    }
    return w;
  }

  #axisFont(): string {
    return `${Math.round(AXIS_FONT_PX * uPlot.pxRatio)}px ${this.#palette.font}`;
  }

  /**
   * uPlot's least tick spacing (css px) for the time axis: the widest label the pattern makes, plus
   * a gap, so neighbouring labels never touch ("YYYY-MM-DD" is twice as wide as "HH:mm").
   */
  #timeLabelSpace(): number {
    const font = this.#axisFont();
    const key = `${font}|${this.#format.pattern}|${i18n.locale}`;
    if (key === this.#spaceKey) return this.#space;
    const sample = Date.UTC(2000, 11, 28, 23, 58, 58) / 1000;
    let widest = 0;
    for (const incr of [1, 60, DAY_S])
      for (const label of timeAxisLabels([sample], incr, this.#format))
        for (const line of label.split("\n")) widest = Math.max(widest, this.#measure(font, line));
    // Only the shown step's labels matter, but the step follows from the space: take the widest.
    this.#spaceKey = key;
    this.#space = Math.max(AXIS_MIN_SPACE_PX, Math.ceil(widest / uPlot.pxRatio) + AXIS_LABEL_GAP_PX);
    return this.#space;
  }

  /** The time axis' labels under uPlot's ticks, kept inside the canvas (placeAxisLabels). */
  #drawTimeLabels(u: uPlot): void {
    const { min, max } = xScale(u);
    const splits = this.#axisSplits;
    if (this.#data[COL.x].length === 0 || min == null || max == null || splits.length === 0) {
      this.#axisLabels = [];
      return;
    }
    const px = uPlot.pxRatio;
    const ctx = u.ctx;
    const font = this.#axisFont();
    const texts = this.#axisTexts;
    const items = texts.map((text, i) => ({
      lines: text.split("\n"),
      x: Math.round(u.valToPos(num(splits, i), "x", true)),
    }));
    const edge = AXIS_EDGE_PX * px;
    const placed = placeAxisLabels(
      items,
      { lo: edge, hi: ctx.canvas.width - edge },
      (t) => this.#measure(font, t),
      (AXIS_LABEL_GAP_PX / 2) * px,
    );
    const y = u.bbox.top + u.bbox.height + Math.round(AXIS_TICK_PX * px) + Math.round(AXIS_GAP_PX * px);
    const lineHeight = Math.round(AXIS_FONT_PX * px) * AXIS_LINE_GAP;
    ctx.save();
    ctx.font = font;
    ctx.fillStyle = this.#palette.muted;
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    for (const l of placed) {
      const cx = l.left + l.width / 2;
      l.lines.forEach((line, j) => ctx.fillText(line, cx, y + j * lineHeight));
    }
    ctx.restore();
    this.#axisLabels = placed;
  }

  #drawCandles(u: uPlot, ctx: CanvasRenderingContext2D, px: number): void {
    const d = this.#data;
    const xs = d[COL.x];
    const n = xs.length;
    const { min, max } = xScale(u);
    if (min == null || max == null || max <= min) return;
    const step = (this.#tfSec() * u.bbox.width) / (max - min);
    const body = step < 3 ? Math.max(1, Math.round(px)) : Math.max(1, Math.floor(step * 0.7));
    const wick = Math.max(1, Math.round(px));
    const half = body / 2;
    // Only the candles in view (plus one each side so a wick at the edge is not cut off).
    let i0 = lowerBound(xs, min) - 1;
    let i1 = lowerBound(xs, max) + 1;
    i0 = Math.max(0, i0);
    i1 = Math.min(n, i1);
    const p = this.#palette;
    const volBase = u.valToPos(0, "vol", true);
    for (const up of [true, false]) {
      const vol = new Path2D();
      const bodies = new Path2D();
      const wicks = new Path2D();
      for (let i = i0; i < i1; i++) {
        const o = num(d[COL.open], i);
        const c = num(d[COL.close], i);
        if (c >= o !== up) continue;
        const x = Math.round(u.valToPos(num(xs, i), "x", true));
        const v = u.valToPos(num(d[COL.volume], i), "vol", true);
        vol.rect(x - half, v, body, volBase - v);
        const yo = u.valToPos(o, "price", true);
        const yc = u.valToPos(c, "price", true);
        const yh = u.valToPos(num(d[COL.high], i), "price", true);
        const yl = u.valToPos(num(d[COL.low], i), "price", true);
        const yTop = Math.round(Math.min(yo, yc));
        const h = Math.max(wick, Math.round(Math.abs(yc - yo)));
        bodies.rect(x - half, yTop, body, h);
        wicks.rect(x - wick / 2, Math.round(yh), wick, Math.max(wick, Math.round(yl - yh)));
      }
      // The theme's soft tints are made for row backgrounds and vanish as thin bars: the candle
      // colour at a fixed alpha reads in every theme.
      ctx.fillStyle = up ? p.up : p.down;
      ctx.globalAlpha = VOLUME_ALPHA;
      ctx.fill(vol);
      ctx.globalAlpha = 1;
      ctx.fill(wicks);
      ctx.fill(bodies);
    }
  }

  #drawMarkers(u: uPlot, ctx: CanvasRenderingContext2D, px: number): void {
    const { min, max } = xScale(u);
    if (min == null || max == null) return;
    const r = 5 * px;
    const p = this.#palette;
    for (const m of this.#overlay.markers) {
      const t = m.mts / 1000;
      if (t < min || t > max) continue;
      const x = u.valToPos(t, "x", true);
      const y = u.valToPos(m.price, "price", true);
      ctx.beginPath();
      ctx.moveTo(x, y - r);
      ctx.lineTo(x + r, y);
      ctx.lineTo(x, y + r);
      ctx.lineTo(x - r, y);
      ctx.closePath();
      // Amber diamonds stand apart from both candle colours; the outline says which side was
      // liquidated (a long is sold: the down colour).
      ctx.fillStyle = p.warning;
      ctx.fill();
      ctx.lineWidth = px;
      ctx.strokeStyle = m.long ? p.down : p.up;
      ctx.stroke();
    }
  }

  #drawLines(u: uPlot, ctx: CanvasRenderingContext2D, px: number, p: ChartPalette): void {
    const { left, top, width, height } = u.bbox;
    const n = this.#data[COL.x].length;
    ctx.font = `${Math.round(10 * px)}px ${p.font}`;
    ctx.textBaseline = "middle";
    const th = 14 * px;
    const gap = 1 * px;
    const labels: { y: number; colour: string; text: string; width: number }[] = [];
    const line = (price: number, colour: string, label: string, dash: number[]): void => {
      const y = Math.round(u.valToPos(price, "price", true)) + 0.5;
      if (y < top || y > top + height) return;
      ctx.strokeStyle = colour;
      ctx.lineWidth = px;
      ctx.setLineDash(dash);
      ctx.beginPath();
      ctx.moveTo(left, y);
      ctx.lineTo(left + width, y);
      ctx.stroke();
      ctx.setLineDash([]);
      const text = label === "" ? toSignificant(price) : `${label} ${toSignificant(price)}`;
      labels.push({ y, colour, text, width: ctx.measureText(text).width + 8 * px });
    };
    for (const l of this.#overlay.lines)
      line(l.price, lineColour(l.kind, p), l.label, l.kind === "position" ? [] : [4 * px, 3 * px]);
    if (n > 0) {
      const close = num(this.#data[COL.close], n - 1);
      const open = num(this.#data[COL.open], n - 1);
      line(close, close >= open ? p.up : p.down, "", [1 * px, 2 * px]);
    }
    // Labels of nearby levels would overlap: stack them downwards from the top one, and shift the
    // stack up again if it ran past the bottom. The lines themselves stay at their prices.
    labels.sort((a, b) => a.y - b.y);
    let next = top + th / 2;
    for (const l of labels) {
      l.y = Math.max(l.y, next);
      next = l.y + th + gap;
    }
    let limit = top + height - th / 2;
    for (let i = labels.length - 1; i >= 0; i--) {
      const l = labels[i] as (typeof labels)[number];
      l.y = Math.min(l.y, limit);
      limit = l.y - th - gap;
    }
    for (const l of labels) {
      const x = left + width - l.width - 2 * px;
      ctx.fillStyle = l.colour;
      ctx.fillRect(x, l.y - th / 2, l.width, th);
      ctx.fillStyle = p.bg;
      ctx.fillText(l.text, x + 4 * px, l.y);
    }
  }
}

let measureCtx: CanvasRenderingContext2D | null = null;

/** One detached 2D context for text measurement, shared by every chart. */
function measureContext(): CanvasRenderingContext2D {
  if (!measureCtx) {
    const ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) throw new Error("chart: no 2D canvas context");
    ctx.direction = "ltr";
    measureCtx = ctx;
  }
  return measureCtx;
}

function lineColour(kind: PriceLineKind, p: ChartPalette): string {
  switch (kind) {
    case "buy":
      return p.up;
    case "sell":
      return p.down;
    case "position":
      return p.accent;
    case "liquidation":
      return p.danger;
    case "alert":
      return p.warning;
    default: {
      const never: never = kind;
      return never;
    }
  }
}

function xScale(u: uPlot): { min: number | null; max: number | null } {
  const x = u.scales["x"];
  return { min: x?.min ?? null, max: x?.max ?? null };
}

/** First index whose value is ≥ v in an ascending array. */
function lowerBound(xs: Float64Array, v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (num(xs, mid) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
