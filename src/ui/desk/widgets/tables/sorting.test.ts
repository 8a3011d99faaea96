import { describe, expect, it } from "vitest";
import { ORDER_SORT_KEYS, filledFraction, statusKind } from "./columns";
import { ariaSort, compareValues, nextSorting, readSorting, sortRows, withSorting } from "./sorting";
import { order } from "../../../test-support/account-records";

const COLUMNS = Object.keys(ORDER_SORT_KEYS);

describe("table sorting", () => {
  it("reads only column-asc / column-desc for a known column", () => {
    expect(readSorting({ orders: "price-desc" }, "orders", COLUMNS)).toEqual({ column: "price", direction: "desc" });
    expect(readSorting({ orders: "price-up" }, "orders", COLUMNS)).toBeNull();
    expect(readSorting({ orders: "price" }, "orders", COLUMNS)).toBeNull();
    expect(readSorting({ orders: "nosuch-asc" }, "orders", COLUMNS)).toBeNull();
    expect(readSorting({ other: "price-asc" }, "orders", COLUMNS)).toBeNull();
    expect(readSorting(undefined, "orders", COLUMNS)).toBeNull();
  });

  it("toggles asc then desc on the same column and starts asc on a new one", () => {
    const a = nextSorting(null, "price");
    expect(a).toEqual({ column: "price", direction: "asc" });
    const b = nextSorting(a, "price");
    expect(b).toEqual({ column: "price", direction: "desc" });
    expect(nextSorting(b, "price").direction).toBe("asc");
    expect(nextSorting(b, "amount")).toEqual({ column: "amount", direction: "asc" });
  });

  it("writes this table's entry and drops malformed entries of others", () => {
    expect(withSorting({ a: "x-asc", b: "broken" }, "orders", { column: "price", direction: "desc" })).toEqual({
      a: "x-asc",
      orders: "price-desc",
    });
  });

  it("sorts numbers numerically, strings by locale, nulls last in both directions", () => {
    const rows = [
      order({ id: 1, price: 10 }),
      order({ id: 2, price: null, type: "EXCHANGE MARKET" }),
      order({ id: 3, price: 9 }),
      order({ id: 4, price: 100 }),
    ];
    const asc = sortRows(rows, ORDER_SORT_KEYS, { column: "price", direction: "asc" }).map((o) => o.id);
    expect(asc).toEqual([3, 1, 4, 2]);
    const desc = sortRows(rows, ORDER_SORT_KEYS, { column: "price", direction: "desc" }).map((o) => o.id);
    expect(desc).toEqual([4, 1, 3, 2]);
    const pairs = [order({ id: 1, symbol: "tETHUSD" }), order({ id: 2, symbol: "tBTCUSD" })];
    expect(sortRows(pairs, ORDER_SORT_KEYS, { column: "pair", direction: "asc" }).map((o) => o.id)).toEqual([2, 1]);
    expect(compareValues(null, null)).toBe(0);
  });

  it("keeps the input order for ties and leaves the input untouched", () => {
    const rows = [order({ id: 1, amount: 2 }), order({ id: 2, amount: 1 }), order({ id: 3, amount: 2 })];
    const out = sortRows(rows, ORDER_SORT_KEYS, { column: "amount", direction: "desc" });
    expect(out.map((o) => o.id)).toEqual([1, 3, 2]);
    expect(rows.map((o) => o.id)).toEqual([1, 2, 3]);
  });

  it("sorts by filled share", () => {
    const rows = [
      order({ id: 1, amount: 1, original: 1 }),
      order({ id: 2, amount: 0.25, original: 1 }),
      order({ id: 3, amount: -0.5, original: -1 }),
    ];
    expect(rows.map(filledFraction)).toEqual([0, 0.75, 0.5]);
    expect(sortRows(rows, ORDER_SORT_KEYS, { column: "filled", direction: "desc" }).map((o) => o.id)).toEqual([
      2, 3, 1,
    ]);
  });

  it("reports aria-sort for the sorted column only", () => {
    expect(ariaSort({ column: "price", direction: "asc" }, "price")).toBe("ascending");
    expect(ariaSort({ column: "price", direction: "desc" }, "price")).toBe("descending");
    expect(ariaSort({ column: "price", direction: "desc" }, "amount")).toBe("none");
  });

  it("reduces a status to its kind", () => {
    expect(statusKind("EXECUTED @ 100.0(1.0): was PARTIALLY FILLED @ 99(0.5)")).toBe("EXECUTED");
    expect(statusKind("PARTIALLY FILLED @ 99(0.5)")).toBe("PARTIALLY FILLED");
    expect(statusKind("CANCELED")).toBe("CANCELED");
    expect(statusKind("ACTIVE")).toBe("ACTIVE");
  });
});
