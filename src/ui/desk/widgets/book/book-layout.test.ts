import { describe, expect, it } from "vitest";
import { BOOK_LAYOUT, bookLayout, centerOffset, deepestVisible, listRows, stackedRow } from "./book-layout";

describe("book layouts", () => {
  it("accepts 1–3 and falls back to side by side", () => {
    expect(bookLayout(1)).toBe(BOOK_LAYOUT.STACKED);
    expect(bookLayout(3)).toBe(BOOK_LAYOUT.LADDER);
    expect(bookLayout(9)).toBe(BOOK_LAYOUT.SIDE_BY_SIDE);
  });

  it("lists asks (worst first), the spread, then bids (best first) when stacked", () => {
    expect(listRows(BOOK_LAYOUT.STACKED, 3)).toBe(7);
    expect(listRows(BOOK_LAYOUT.SIDE_BY_SIDE, 3)).toBe(3);
    const rows = [0, 1, 2, 3, 4, 5, 6].map((i) => stackedRow(i, 3));
    expect(rows).toEqual([
      { kind: "ask", level: 2 },
      { kind: "ask", level: 1 },
      { kind: "ask", level: 0 },
      { kind: "spread" },
      { kind: "bid", level: 0 },
      { kind: "bid", level: 1 },
      { kind: "bid", level: 2 },
    ]);
  });

  it("finds the deepest visible level on either side", () => {
    expect(deepestVisible(BOOK_LAYOUT.SIDE_BY_SIDE, 100, 40, 60)).toBe(60);
    // Stacked, 100 per side: rows 90…110 show asks 9…0, the spread and bids 0…9.
    expect(deepestVisible(BOOK_LAYOUT.STACKED, 100, 90, 110)).toBe(9);
    expect(deepestVisible(BOOK_LAYOUT.LADDER, 100, 0, 20)).toBe(99);
    expect(deepestVisible(BOOK_LAYOUT.STACKED, 100, 150, 170)).toBe(69);
  });

  it("centres the spread row", () => {
    expect(centerOffset(100, 20, 420)).toBe(2000 - 200);
    expect(centerOffset(2, 20, 420)).toBe(0);
  });
});
