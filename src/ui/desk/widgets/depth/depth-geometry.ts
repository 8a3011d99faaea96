/**
 * The depth chart's geometry, free of the DOM so it tests in Node: the price window (symmetric
 * around the mid so both sides are comparable), the height scale, the stepped outlines of the
 * cumulative bids and asks, and the hover lookup (the cumulative amount at a price).
 */
import { BOOK_VIEW_STRIDE, type BookView } from "../../../../protocol";

export interface DepthWindow {
  readonly lo: number;
  readonly hi: number;
  readonly mid: number;
  readonly bestBid: number;
  readonly bestAsk: number;
  /** The largest cumulative amount inside the window (the top of the y axis). */
  readonly maxTotal: number;
}

function at(levels: Float64Array, i: number): number {
  return levels[i] ?? NaN;
}

/** The window for a view, or null when a side is empty. */
export function depthWindow(view: BookView): DepthWindow | null {
  const { bids, asks, levels } = view;
  if (bids === 0 || asks === 0) return null;
  const s = BOOK_VIEW_STRIDE;
  const bestBid = at(levels, 0);
  const bestAsk = at(levels, bids * s);
  const worstBid = at(levels, (bids - 1) * s);
  const worstAsk = at(levels, (bids + asks - 1) * s);
  const mid = (bestBid + bestAsk) / 2;
  // Symmetric: the shallower side sets the half-width, so neither side's depth looks deeper by
  // showing a wider price range. A one-level side still gets a window a spread wide.
  const half = Math.max(Math.min(mid - worstBid, worstAsk - mid), bestAsk - bestBid, mid * 1e-6);
  const lo = mid - half;
  const hi = mid + half;
  let maxTotal = 0;
  for (let i = 0; i < bids; i++) {
    if (at(levels, i * s) < lo) break;
    maxTotal = Math.max(maxTotal, at(levels, i * s + 3));
  }
  for (let i = 0; i < asks; i++) {
    const o = (bids + i) * s;
    if (at(levels, o) > hi) break;
    maxTotal = Math.max(maxTotal, at(levels, o + 3));
  }
  return { lo, hi, mid, bestBid, bestAsk, maxTotal };
}

/** Cumulative amount at `price`: bids at or above it, asks at or below it; 0 inside the spread. */
export function totalAt(
  view: BookView,
  price: number,
): { readonly side: "bid" | "ask" | null; readonly total: number } {
  const { bids, asks, levels } = view;
  const s = BOOK_VIEW_STRIDE;
  if (bids > 0 && price <= at(levels, 0)) {
    let total = 0;
    for (let i = 0; i < bids && at(levels, i * s) >= price; i++) total = at(levels, i * s + 3);
    return { side: "bid", total };
  }
  if (asks > 0 && price >= at(levels, bids * s)) {
    let total = 0;
    for (let i = 0; i < asks && at(levels, (bids + i) * s) <= price; i++) total = at(levels, (bids + i) * s + 3);
    return { side: "ask", total };
  }
  return { side: null, total: 0 };
}

export interface Plot {
  readonly x: (price: number) => number;
  readonly y: (total: number) => number;
  readonly price: (x: number) => number;
}

/** Maps prices to [left, right] and totals to [bottom, top] (canvas y grows downwards). */
export function plot(w: DepthWindow, left: number, right: number, top: number, bottom: number): Plot {
  const span = w.hi - w.lo || 1;
  const scale = w.maxTotal > 0 ? w.maxTotal * 1.08 : 1;
  return {
    x: (price) => left + ((price - w.lo) / span) * (right - left),
    y: (total) => bottom - (total / scale) * (bottom - top),
    price: (x) => w.lo + ((x - left) / (right - left || 1)) * span,
  };
}

/** The outline a path needs: moveTo / lineTo points, as a flat [x0, y0, x1, y1, …] list. */
export type Points = number[];

/**
 * The stepped outline of one side, from the best level outwards to the window's edge: at each level
 * the total steps up to that level's cumulative amount. Writes into `out` (reused between frames).
 */
export function sideOutline(view: BookView, side: "bid" | "ask", w: DepthWindow, p: Plot, out: Points): Points {
  out.length = 0;
  const s = BOOK_VIEW_STRIDE;
  const n = side === "bid" ? view.bids : view.asks;
  const base = side === "bid" ? 0 : view.bids;
  const edge = side === "bid" ? w.lo : w.hi;
  const y0 = p.y(0);
  let prevY = y0;
  out.push(p.x(at(view.levels, base * s)), y0);
  for (let i = 0; i < n; i++) {
    const o = (base + i) * s;
    const price = at(view.levels, o);
    if (side === "bid" ? price < edge : price > edge) break;
    const x = p.x(price);
    const y = p.y(at(view.levels, o + 3));
    out.push(x, prevY, x, y);
    prevY = y;
  }
  out.push(p.x(edge), prevY, p.x(edge), y0);
  return out;
}

/** A round step (1, 2 or 5 × 10^k) that divides `max` into about `count` guides. */
export function niceStep(max: number, count = 4): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}
