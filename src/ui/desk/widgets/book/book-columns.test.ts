import { describe, expect, it } from "vitest";
import { bookGeometry, columnAt, headCells, textX, type BookColumn } from "./book-columns";
import { BOOK_LAYOUT } from "./book-layout";

const parts = (cols: readonly BookColumn[]) => cols.map((c) => c.part).join(",");

describe("book column geometry", () => {
  it("mirrors the halves side by side: prices meet in the middle, counts on the outer edges", () => {
    const g = bookGeometry(BOOK_LAYOUT.SIDE_BY_SIDE, 600);
    expect(parts(g.bid.columns)).toBe("count,amount,total,price");
    expect(parts(g.ask.columns)).toBe("price,total,amount,count");
    const bidPrice = g.bid.columns.at(-1)!;
    const askPrice = g.ask.columns[0]!;
    expect(bidPrice.x + bidPrice.width).toBeCloseTo(300, 6);
    expect(askPrice.x).toBeCloseTo(300, 6);
    expect(bidPrice.align).toBe("right");
    expect(askPrice.align).toBe("left");
    // The count column is 0.7 of the others.
    expect(g.bid.columns[0]!.width / g.bid.columns[1]!.width).toBeCloseTo(0.7, 6);
    // Bars grow outwards from the middle, over the whole half.
    expect(g.bid.bar).toEqual({ anchor: 300, span: 300, dir: -1 });
    expect(g.ask.bar).toEqual({ anchor: 300, span: 300, dir: 1 });
  });

  it("drops the count, then the total, as the widget narrows", () => {
    expect(parts(bookGeometry(BOOK_LAYOUT.SIDE_BY_SIDE, 440, 450).bid.columns)).toBe("amount,total,price");
    expect(parts(bookGeometry(BOOK_LAYOUT.SIDE_BY_SIDE, 300, 310).ask.columns)).toBe("price,amount");
    expect(parts(bookGeometry(BOOK_LAYOUT.STACKED, 280, 290).bid.columns)).toBe("price,amount,total");
    expect(parts(bookGeometry(BOOK_LAYOUT.LADDER, 360, 370).ask.columns)).toBe("price,amount");
    expect(bookGeometry(BOOK_LAYOUT.SIDE_BY_SIDE, 440, 450).padding).toBe(3);
    expect(bookGeometry(BOOK_LAYOUT.SIDE_BY_SIDE, 600).padding).toBe(6);
  });

  it("puts the ladder's bid sizes left of the price and the ask sizes right of it", () => {
    const g = bookGeometry(BOOK_LAYOUT.LADDER, 500);
    expect(parts(g.bid.columns)).toBe("total,amount,price");
    expect(parts(g.ask.columns)).toBe("price,amount,total");
    expect(g.bid.columns.find((c) => c.part === "price")).toEqual(g.ask.columns.find((c) => c.part === "price"));
    expect(g.bid.bar).toEqual({ anchor: 200, span: 200, dir: -1 });
    expect(g.ask.bar).toEqual({ anchor: 300, span: 200, dir: 1 });
    // Heads: the bid columns, then the ask columns without a second price.
    expect(headCells(g).map((h) => `${h.side}:${h.part}`)).toEqual([
      "bid:total",
      "bid:amount",
      "bid:price",
      "ask:amount",
      "ask:total",
    ]);
  });

  it("places text inside the padding and finds the column under a point", () => {
    const g = bookGeometry(BOOK_LAYOUT.STACKED, 600);
    const [price, amount] = g.bid.columns as [BookColumn, BookColumn];
    expect(textX(price, g.padding)).toBe(price.x + 6);
    expect(textX(amount, g.padding)).toBe(amount.x + amount.width - 6);
    expect(columnAt(g.bid, price.x + 1)?.part).toBe("price");
    expect(columnAt(g.bid, amount.x + 1)?.part).toBe("amount");
    expect(columnAt(g.bid, 601)).toBeNull();
    expect(textX({ part: "price", x: 100, width: 50, align: "center" }, 6)).toBe(125);
  });
});
