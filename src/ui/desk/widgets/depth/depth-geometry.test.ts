import { describe, expect, it } from "vitest";
import type { BookView } from "../../../../protocol";
import { depthWindow, niceStep, plot, sideOutline, totalAt } from "./depth-geometry";

/** bids 99, 98, 97 (amounts 1, 2, 3) and asks 101, 102 (amounts 1, 1). */
function view(): BookView {
  const levels = Float64Array.from([99, 1, 1, 1, 98, 1, 2, 3, 97, 1, 3, 6, 101, 1, 1, 1, 102, 1, 1, 2]);
  return {
    handle: "h",
    symbol: "tX",
    status: "SUBSCRIBED",
    bids: 3,
    asks: 2,
    levels,
    version: 1,
    publishedAt: 0,
    health: { lastUpdateAt: 1, messagesPerSecond: 0, resyncs: 0, checksumsOk: 0, checksumsFailed: 0, stale: false },
  };
}

describe("depth chart geometry", () => {
  it("centres a symmetric window on the mid, as wide as the shallower side", () => {
    const w = depthWindow(view());
    expect(w).toMatchObject({ mid: 100, lo: 98, hi: 102, bestBid: 99, bestAsk: 101 });
    // 97 lies outside the window, so its total does not set the scale.
    expect(w?.maxTotal).toBe(3);
  });

  it("reads the cumulative amount at a price", () => {
    const v = view();
    expect(totalAt(v, 99)).toEqual({ side: "bid", total: 1 });
    expect(totalAt(v, 98.5)).toEqual({ side: "bid", total: 1 });
    expect(totalAt(v, 98)).toEqual({ side: "bid", total: 3 });
    expect(totalAt(v, 100)).toEqual({ side: null, total: 0 });
    expect(totalAt(v, 101.5)).toEqual({ side: "ask", total: 1 });
    expect(totalAt(v, 150)).toEqual({ side: "ask", total: 2 });
  });

  it("maps prices and totals to pixels and back", () => {
    const w = depthWindow(view())!;
    const p = plot(w, 0, 400, 0, 100);
    expect(p.x(98)).toBe(0);
    expect(p.x(102)).toBe(400);
    expect(p.price(200)).toBe(100);
    expect(p.y(0)).toBe(100);
    expect(p.y(w.maxTotal)).toBeGreaterThan(0);
  });

  it("outlines each side as steps out to the window's edge", () => {
    const v = view();
    const w = depthWindow(v)!;
    const p = plot(w, 0, 400, 0, 100);
    const bids = sideOutline(v, "bid", w, p, []);
    const y = (t: number) => p.y(t);
    // Start on the baseline at the best bid, step up to 1, over to 98, up to 3, out to the edge, down.
    expect(bids).toEqual([100, y(0), 100, y(0), 100, y(1), 0, y(1), 0, y(3), 0, y(3), 0, y(0)]);
    const asks = sideOutline(v, "ask", w, p, []);
    expect(asks.slice(-4)).toEqual([400, y(2), 400, y(0)]);
  });

  it("picks round guide steps", () => {
    expect(niceStep(130.875)).toBe(50);
    expect(niceStep(8)).toBe(2);
    expect(niceStep(0.37)).toBe(0.1);
    expect(niceStep(0)).toBe(1);
  });
});
