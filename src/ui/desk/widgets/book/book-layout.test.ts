import { describe, expect, it } from "vitest";
import {
  BOOK_LAYOUT,
  bookLayout,
  centerOffset,
  deepestVisible,
  listRows,
  moveCursor,
  rowIndexOf,
  stackedRow,
} from "./book-layout";

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

describe("the book's keyboard cursor", () => {
  const bid = (level: number, part: "price" | "amount" = "price") => ({ side: "bid" as const, level, part });
  const ask = (level: number, part: "price" | "amount" = "price") => ({ side: "ask" as const, level, part });

  it("finds the row of a level in each layout", () => {
    expect(rowIndexOf(BOOK_LAYOUT.SIDE_BY_SIDE, 25, "ask", 3)).toBe(3);
    expect(rowIndexOf(BOOK_LAYOUT.STACKED, 25, "ask", 0)).toBe(24);
    expect(rowIndexOf(BOOK_LAYOUT.STACKED, 25, "bid", 0)).toBe(26);
    for (const [side, level] of [
      ["ask", 7],
      ["bid", 4],
    ] as const) {
      const row = stackedRow(rowIndexOf(BOOK_LAYOUT.LADDER, 25, side, level), 25);
      expect(row).toEqual({ kind: side, level });
    }
  });

  it("moves along the rows on screen, across the spread in the stacked layouts", () => {
    expect(moveCursor(BOOK_LAYOUT.SIDE_BY_SIDE, 25, bid(0), "ArrowDown")).toEqual(bid(1));
    expect(moveCursor(BOOK_LAYOUT.SIDE_BY_SIDE, 25, bid(0), "ArrowUp")).toEqual(bid(0));
    expect(moveCursor(BOOK_LAYOUT.SIDE_BY_SIDE, 25, ask(24), "ArrowDown")).toEqual(ask(24));
    expect(moveCursor(BOOK_LAYOUT.STACKED, 25, ask(0), "ArrowDown")).toEqual(bid(0));
    expect(moveCursor(BOOK_LAYOUT.STACKED, 25, bid(0), "ArrowUp")).toEqual(ask(0));
    expect(moveCursor(BOOK_LAYOUT.STACKED, 25, ask(3), "ArrowUp")).toEqual(ask(4));
    expect(moveCursor(BOOK_LAYOUT.STACKED, 25, ask(24), "ArrowUp")).toEqual(ask(24));
    expect(moveCursor(BOOK_LAYOUT.STACKED, 25, bid(24), "ArrowDown")).toEqual(bid(24));
    expect(moveCursor(BOOK_LAYOUT.STACKED, 25, bid(9), "Home")).toEqual(bid(0));
  });

  it("moves along the cells on screen", () => {
    const sbs = BOOK_LAYOUT.SIDE_BY_SIDE;
    expect(moveCursor(sbs, 25, bid(2), "ArrowRight")).toEqual(ask(2));
    expect(moveCursor(sbs, 25, ask(2), "ArrowRight")).toEqual(ask(2, "amount"));
    expect(moveCursor(sbs, 25, ask(2, "amount"), "ArrowRight")).toEqual(ask(2, "amount"));
    expect(moveCursor(sbs, 25, bid(2), "ArrowLeft")).toEqual(bid(2, "amount"));
    expect(moveCursor(BOOK_LAYOUT.STACKED, 25, ask(1), "ArrowRight")).toEqual(ask(1, "amount"));
    expect(moveCursor(BOOK_LAYOUT.LADDER, 25, bid(1), "ArrowLeft")).toEqual(bid(1, "amount"));
    expect(moveCursor(BOOK_LAYOUT.LADDER, 25, ask(1), "ArrowLeft")).toEqual(ask(1));
    expect(moveCursor(BOOK_LAYOUT.LADDER, 25, ask(1), "ArrowRight")).toEqual(ask(1, "amount"));
    expect(moveCursor(sbs, 25, bid(1), "a")).toBeNull();
  });

  it("pages along a side and jumps to its ends", () => {
    const sbs = BOOK_LAYOUT.SIDE_BY_SIDE;
    expect(moveCursor(sbs, 100, bid(3), "End")).toEqual(bid(99));
    expect(moveCursor(sbs, 100, bid(3), "PageDown", 12)).toEqual(bid(15));
    expect(moveCursor(sbs, 100, bid(3), "PageUp", 12)).toEqual(bid(0));
    expect(moveCursor(sbs, 100, bid(95), "PageDown", 12)).toEqual(bid(99));
    // Stacked asks grow upwards: PageUp goes deeper.
    expect(moveCursor(BOOK_LAYOUT.STACKED, 100, ask(3), "PageUp", 12)).toEqual(ask(15));
    expect(moveCursor(BOOK_LAYOUT.STACKED, 100, ask(3), "PageDown", 12)).toEqual(ask(0));
    expect(moveCursor(BOOK_LAYOUT.STACKED, 100, bid(3), "PageDown", 12)).toEqual(bid(15));
  });
});
