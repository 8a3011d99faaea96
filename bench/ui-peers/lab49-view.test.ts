import { describe, expect, it } from "vitest";
import { BOOK_VIEW_STRIDE } from "../../src/protocol";
import { peerBook } from "./lab49-view";

function view(bids: number[][], asks: number[][]) {
  const levels = new Float64Array((bids.length + asks.length) * BOOK_VIEW_STRIDE);
  [...bids, ...asks].forEach((l, i) => levels.set(l, i * BOOK_VIEW_STRIDE));
  const health = {
    lastUpdateAt: 1000,
    messagesPerSecond: 0,
    resyncs: 0,
    checksumsOk: 0,
    checksumsFailed: 0,
    stale: false,
  };
  return { bids: bids.length, asks: asks.length, levels, health, publishedAt: 1042 };
}

describe("peerBook", () => {
  it("splits the view into [price, size] strings per side, best first, with the view's times", () => {
    const b = peerBook(
      view(
        [
          [29999, 3, 0.5, 0.5],
          [29998, 1, 1.25, 1.75],
        ],
        [
          [30001, 2, 2, 2],
          [30002.5, 7, 0.00012, 2.00012],
          [30004, 1, 3, 5.00012],
        ],
      ),
    );
    expect(b.bids).toEqual([
      ["29999", "0.5000"],
      ["29998", "1.2500"],
    ]);
    expect(b.asks).toEqual([
      ["30001", "2.0000"],
      ["30002.5", "0.0001"],
      ["30004", "3.0000"],
    ]);
    expect(b.updateAt).toBe(1000);
    expect(b.publishedAt).toBe(1042);
  });

  it("gives a one-sided book an empty side", () => {
    const b = peerBook(view([], [[30001, 2, 2, 2]]));
    expect(b.bids).toEqual([]);
    expect(b.asks).toEqual([["30001", "2.0000"]]);
  });
});
