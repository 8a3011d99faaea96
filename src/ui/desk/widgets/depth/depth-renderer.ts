/**
 * Draws the depth chart on a canvas: stepped cumulative areas for bids and asks, the mid line, a
 * few axis labels and the hover crosshair. Every input (a view, a resize, a theme change, the
 * pointer) only marks the chart dirty; one animation frame from the owned scheduler draws it
 * (coalesce, then draw once). The reused point buffers and label caches keep the frame free of allocation
 * beyond a handful of strings.
 */
import type { BookView, Cancel, Scheduler } from "../../../../protocol";
import { abbreviate } from "../../../../protocol";
import { amountLabel, BoundedCache, priceLabel } from "../book";
import { depthWindow, niceStep, plot, sideOutline, totalAt, type Points } from "./depth-geometry";

export interface DepthColours {
  up: string;
  upSoft: string;
  down: string;
  downSoft: string;
  text: string;
  grid: string;
  font: string;
  line: string;
}

export interface HoverReadout {
  readonly price: string;
  readonly side: "bid" | "ask" | null;
  readonly total: string;
  /** CSS px from the chart's left edge. */
  readonly x: number;
}

const PAD = { left: 8, right: 8, top: 10, bottom: 20 };

export class DepthRenderer {
  readonly #canvas: HTMLCanvasElement;
  readonly #ctx: CanvasRenderingContext2D | null;
  readonly #timers: Scheduler;
  readonly #onHover: (readout: HoverReadout | null) => void;
  #view: BookView | null = null;
  #colours: DepthColours | null = null;
  #width = 0;
  #height = 0;
  #dpr = 1;
  #hoverX: number | null = null;
  #digits = 5;
  #pending: Cancel | null = null;
  readonly #bidPts: Points = [];
  readonly #askPts: Points = [];
  readonly #prices = new BoundedCache<number, string>(512);
  readonly #totals = new BoundedCache<number, string>(512);
  /** Frames drawn (read by tests to check that views are coalesced per frame). */
  frames = 0;

  constructor(canvas: HTMLCanvasElement, timers: Scheduler, onHover: (readout: HoverReadout | null) => void) {
    this.#canvas = canvas;
    this.#ctx = canvas.getContext("2d");
    this.#timers = timers;
    this.#onHover = onHover;
  }

  setView(view: BookView | null): void {
    this.#view = view;
    this.#invalidate();
  }

  setDigits(digits: number): void {
    if (digits === this.#digits) return;
    this.#digits = digits;
    this.#prices.clear();
    this.#invalidate();
  }

  setColours(colours: DepthColours): void {
    this.#colours = colours;
    this.#invalidate();
  }

  resize(width: number, height: number, dpr: number): void {
    this.#width = width;
    this.#height = height;
    this.#dpr = dpr;
    this.#canvas.width = Math.max(1, Math.round(width * dpr));
    this.#canvas.height = Math.max(1, Math.round(height * dpr));
    this.#invalidate();
  }

  hover(x: number | null): void {
    this.#hoverX = x;
    this.#invalidate();
  }

  dispose(): void {
    this.#pending?.();
    this.#pending = null;
  }

  #invalidate(): void {
    if (this.#pending) return;
    this.#pending = this.#timers.frame(() => {
      this.#pending = null;
      this.draw();
    });
  }

  #price(p: number): string {
    return this.#prices.get(p, (v) => priceLabel(v, this.#digits));
  }

  draw(): void {
    const ctx = this.#ctx;
    const c = this.#colours;
    if (!ctx || !c) return;
    this.frames++;
    this.#canvas.dataset["frames"] = String(this.frames);
    const w = this.#width;
    const h = this.#height;
    ctx.setTransform(this.#dpr, 0, 0, this.#dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const view = this.#view;
    const win = view ? depthWindow(view) : null;
    if (!view || !win || w < 40 || h < 40) {
      this.#onHover(null);
      return;
    }
    const left = PAD.left;
    const right = w - PAD.right;
    const top = PAD.top;
    const bottom = h - PAD.bottom;
    const p = plot(win, left, right, top, bottom);

    // Horizontal guides at round totals.
    const step = niceStep(win.maxTotal);
    ctx.strokeStyle = c.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let total = step; total <= win.maxTotal; total += step) {
      const y = Math.round(p.y(total)) + 0.5;
      ctx.moveTo(left, y);
      ctx.lineTo(right, y);
    }
    ctx.stroke();

    this.#area(sideOutline(view, "bid", win, p, this.#bidPts), c.upSoft, c.up);
    this.#area(sideOutline(view, "ask", win, p, this.#askPts), c.downSoft, c.down);

    // The mid line.
    const midX = Math.round(p.x(win.mid)) + 0.5;
    ctx.strokeStyle = c.text;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(midX, top);
    ctx.lineTo(midX, bottom);
    ctx.stroke();
    ctx.setLineDash([]);

    // Axis labels: the window's edges and the mid; totals at the guides.
    ctx.fillStyle = c.text;
    // A fixed direction: with "inherit", each fillText resolves the canvas's computed style and
    // flushes the page's pending style work first (see candle-chart.ts, bench:ui).
    ctx.direction = "ltr";
    ctx.font = `10px ${c.font}`;
    ctx.textBaseline = "top";
    ctx.textAlign = "left";
    ctx.fillText(this.#price(win.lo), left, bottom + 5);
    ctx.textAlign = "right";
    ctx.fillText(this.#price(win.hi), right, bottom + 5);
    ctx.textAlign = "center";
    ctx.fillText(this.#price(win.mid), midX, bottom + 5);
    ctx.textAlign = "left";
    ctx.textBaseline = "bottom";
    for (let total = step; total <= win.maxTotal; total += step) {
      ctx.fillText(
        this.#totals.get(total, (v) => abbreviate(v, 3)),
        left + 2,
        p.y(total) - 2,
      );
    }

    this.#hover(view, p, left, right, top, bottom, c);
  }

  #area(pts: Points, fill: string, stroke: string): void {
    const ctx = this.#ctx;
    if (!ctx || pts.length < 4) return;
    ctx.beginPath();
    ctx.moveTo(pts[0] ?? 0, pts[1] ?? 0);
    for (let i = 2; i < pts.length; i += 2) ctx.lineTo(pts[i] ?? 0, pts[i + 1] ?? 0);
    ctx.closePath();
    ctx.fillStyle = fill;
    ctx.fill();
    // The outline without the closing edges along the baseline.
    ctx.beginPath();
    ctx.moveTo(pts[2] ?? 0, pts[3] ?? 0);
    for (let i = 4; i < pts.length - 2; i += 2) ctx.lineTo(pts[i] ?? 0, pts[i + 1] ?? 0);
    ctx.strokeStyle = stroke;
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }

  #hover(
    view: BookView,
    p: ReturnType<typeof plot>,
    left: number,
    right: number,
    top: number,
    bottom: number,
    c: DepthColours,
  ): void {
    const hx = this.#hoverX;
    if (hx === null || hx < left || hx > right) {
      this.#onHover(null);
      return;
    }
    const ctx = this.#ctx;
    if (!ctx) return;
    const price = p.price(hx);
    const { side, total } = totalAt(view, price);
    ctx.strokeStyle = c.line;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(Math.round(hx) + 0.5, top);
    ctx.lineTo(Math.round(hx) + 0.5, bottom);
    ctx.stroke();
    if (side) {
      const y = p.y(total);
      ctx.fillStyle = side === "bid" ? c.up : c.down;
      ctx.beginPath();
      ctx.arc(hx, y, 3.5, 0, Math.PI * 2);
      ctx.fill();
    }
    this.#onHover({ price: priceLabel(price, this.#digits), side, total: amountLabel(total, false), x: hx });
  }
}
