import { describe, expect, it } from "vitest";
import {
  amountLabel,
  BoundedCache,
  bookPrecision,
  formValue,
  LabelCache,
  lengthForDepth,
  levelPrice,
  normalizePrice,
  precisionDigits,
  priceLabel,
  tierFor,
} from "./book-format";

describe("book numbers", () => {
  it("maps the precision setting to digits and the wire precision", () => {
    expect([0, 1, 2, 3, 4].map(precisionDigits)).toEqual([5, 4, 3, 2, 1]);
    expect(bookPrecision(3)).toBe("P3");
    expect(bookPrecision(7)).toBe("P0");
    expect(bookPrecision(-1)).toBe("P0");
  });

  it("puts an order into the level the exchange counts it in: bids down, asks up", () => {
    expect(levelPrice(50_012.7, 5, true)).toBe(50_012);
    expect(levelPrice(50_012.2, 5, false)).toBe(50_013);
    expect(levelPrice(50_017, 4, true)).toBe(50_010);
    expect(levelPrice(50_011, 4, false)).toBe(50_020);
    expect(levelPrice(30_000, 1, true)).toBe(30_000);
    expect(levelPrice(0.0345678, 3, true)).toBe(0.0345);
    expect(levelPrice(0.0345678, 3, false)).toBe(0.0346);
    // A level price from the feed is its own level.
    expect(levelPrice(0.0346, 3, false)).toBe(normalizePrice(0.0346, 3));
  });

  it("writes form values without binary noise or exponents", () => {
    expect(formValue(0.1 + 0.2)).toBe("0.3");
    expect(formValue(50_012)).toBe("50012");
    expect(formValue(1e-9)).toBe("0");
    expect(formValue(12.345678912)).toBe("12.34567891");
    expect(formValue(2.5e-7)).toBe("0.00000025");
  });

  it("labels prices at the book's digits and amounts plain or compact", () => {
    expect(priceLabel(50_012, 5)).toBe("50012");
    expect(priceLabel(0.034567, 5)).toBe("0.034567");
    expect(amountLabel(0.51234, false)).toBe("0.5123");
    expect(amountLabel(12_345.678, false)).toBe("12345.68");
    expect(amountLabel(12_345.678, true)).toBe("12.35k");
    expect(amountLabel(2_500_000, true)).toBe("2.5M");
    expect(amountLabel(0.5, true)).toBe("0.5000");
    expect(amountLabel(0.000123456, true)).toBe("0.0001");
    expect(amountLabel(0.0000123456, true)).toBe("0.0000123");
    expect(amountLabel(0, true)).toBe("0");
  });

  it("chooses depth tiers with a margin below the deepest visible level", () => {
    expect(tierFor(5)).toBe(25);
    expect(tierFor(13)).toBe(100);
    expect(tierFor(90)).toBe(250);
    expect(tierFor(400)).toBe(250);
    expect(lengthForDepth(25)).toBe(100);
    expect(lengthForDepth(250)).toBe(250);
    expect(lengthForDepth(25, "tSTRESS")).toBe(250);
  });
});

describe("label caches", () => {
  it("stays within its bound, dropping the oldest entry", () => {
    const cache = new BoundedCache<number, string>(3);
    let made = 0;
    const make = (k: number) => {
      made++;
      return `v${k}`;
    };
    for (const k of [1, 2, 3, 1, 4, 5]) cache.get(k, make);
    expect(cache.size).toBe(3);
    expect(made).toBe(5);
    cache.get(1, make); // 1 was the oldest insert and has been dropped
    expect(made).toBe(6);
  });

  it("relabels when the precision or the notation changes", () => {
    const labels = new LabelCache();
    labels.configure(5, false);
    expect(labels.amount(12_345)).toBe("12345.00");
    labels.configure(5, true);
    expect(labels.amount(12_345)).toBe("12.35k");
    labels.configure(2, true);
    expect(labels.price(50_000)).toBe("50000");
    expect(labels.price(0.0345)).toBe("0.035");
  });
});
