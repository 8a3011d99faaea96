import { describe, expect, it } from "vitest";
import type { OrderFormValues } from "./order-model";
import { firstInvalid, validateOrder, type ValidationEnv } from "./validate";

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);

const BASE: OrderFormValues = {
  side: "buy",
  kind: "LIMIT",
  context: "exchange",
  price: "100",
  priceAux: "",
  trailing: "",
  ocoStop: "",
  amount: "0.5",
  hidden: false,
  postOnly: false,
  reduceOnly: false,
  oco: false,
  tifOn: false,
  tif: "",
  leverage: "10",
};

const ENV: ValidationEnv = {
  quote: { last: 100, bid: 99.5, ask: 100.5 },
  balance: { amount: 1000, currency: "USD", unit: "quote" },
  minAmount: 0.0001,
  maxAmount: 2000,
  now: NOW,
};

function check(p: Partial<OrderFormValues>, env: Partial<ValidationEnv> = {}) {
  return validateOrder({ ...BASE, ...p }, { ...ENV, ...env });
}

/** A datetime-local value `minutes` from NOW, in the local time zone the form parses it in. */
function localAt(minutes: number): string {
  const d = new Date(NOW + minutes * 60_000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

describe("validateOrder", () => {
  it("accepts a valid limit order", () => {
    const r = check({});
    expect(r.ok).toBe(true);
    expect(r.errors).toEqual({});
    expect(r.warnings).toEqual({});
  });

  it("requires positive numbers (docs/product-rules.md#numbers-and-formats)", () => {
    expect(check({ amount: "" }).errors.amount?.code).toBe("required");
    expect(check({ amount: "abc" }).errors.amount?.code).toBe("not-positive-number");
    expect(check({ amount: "-1" }).errors.amount?.code).toBe("not-positive-number");
    expect(check({ amount: "0" }).errors.amount?.code).toBe("not-positive-number");
    expect(check({ price: "1,5" }).errors.price?.code).toBe("not-positive-number");
    expect(check({ price: "" }).ok).toBe(false);
  });

  it("requires the fields of each type, and only those", () => {
    expect(check({ kind: "MARKET", price: "" }).ok).toBe(true);
    expect(check({ kind: "STOP LIMIT", price: "110", priceAux: "" }).errors.priceAux?.code).toBe("required");
    expect(check({ kind: "TRAILING STOP", price: "", trailing: "" }).errors.trailing?.code).toBe("required");
    expect(check({ kind: "TRAILING STOP", price: "", trailing: "2" }).ok).toBe(true);
    expect(check({ oco: true, ocoStop: "" }).errors.ocoStop?.code).toBe("required");
  });

  it("bounds the amount by the pair's minimum, maximum and 8 decimals", () => {
    expect(check({ amount: "0.00005" }).errors.amount).toEqual({ code: "below-min", params: { min: 0.0001 } });
    expect(check({ amount: "2500" }, { balance: null }).errors.amount?.code).toBe("above-max");
    expect(check({ amount: "0.123456789" }).errors.amount?.code).toBe("too-many-decimals");
  });

  it("puts stops on the far side of the last price", () => {
    expect(check({ kind: "STOP", price: "99" }).errors.price?.code).toBe("stop-buy-not-above-last");
    expect(check({ kind: "STOP", price: "100" }).errors.price?.code).toBe("stop-buy-not-above-last");
    expect(check({ kind: "STOP", price: "101" }).ok).toBe(true);
    expect(check({ kind: "STOP", side: "sell", price: "101" }).errors.price?.code).toBe("stop-sell-not-below-last");
    expect(check({ kind: "STOP LIMIT", side: "sell", price: "95", priceAux: "94" }).ok).toBe(true);
    // Without a last price the exchange decides.
    expect(check({ kind: "STOP", price: "50" }, { quote: { last: null, bid: null, ask: null } }).ok).toBe(true);
    expect(check({ kind: "TRAILING STOP", trailing: "100" }).errors.trailing?.code).toBe("trail-too-wide");
  });

  it("puts the OCO stop on the correct side of the market and of the limit", () => {
    expect(check({ oco: true, ocoStop: "99" }).errors.ocoStop?.code).toBe("oco-buy-not-above-last");
    expect(check({ oco: true, ocoStop: "105" }).ok).toBe(true);
    expect(check({ oco: true, side: "sell", price: "110", ocoStop: "101" }).errors.ocoStop?.code).toBe(
      "oco-sell-not-below-last",
    );
    expect(check({ oco: true, side: "sell", price: "110", ocoStop: "95" }).ok).toBe(true);
    expect(check({ oco: true, price: "120", ocoStop: "110" }).errors.ocoStop?.code).toBe("oco-buy-not-above-limit");
  });

  it("wants the TIF in the future", () => {
    expect(check({ tifOn: true, tif: "" }).errors.tif?.code).toBe("required");
    expect(check({ tifOn: true, tif: "soon" }).errors.tif?.code).toBe("tif-invalid");
    expect(check({ tifOn: true, tif: localAt(-5) }).errors.tif?.code).toBe("tif-past");
    expect(check({ tifOn: true, tif: localAt(30) }).ok).toBe(true);
    // A TIF typed but switched off does not count.
    expect(check({ tifOn: false, tif: "soon" }).ok).toBe(true);
  });

  it("bounds the leverage of derivative orders to 1–100", () => {
    expect(check({ context: "derivative", leverage: "0" }).errors.leverage?.code).toBe("leverage-range");
    expect(check({ context: "derivative", leverage: "101" }).errors.leverage?.code).toBe("leverage-range");
    expect(check({ context: "derivative", leverage: "2.5" }).errors.leverage?.code).toBe("leverage-range");
    expect(check({ context: "derivative", leverage: "100" }).ok).toBe(true);
    expect(check({ context: "exchange", leverage: "0" }).ok).toBe(true);
  });

  it("warns, without blocking, when the balance does not cover the order", () => {
    const r = check({ amount: "11" });
    expect(r.ok).toBe(true);
    expect(r.warnings.amount).toEqual({ code: "insufficient-balance", params: { available: 1000, currency: "USD" } });
    expect(check({ amount: "10" }).warnings.amount).toBeUndefined();
    const sell = check({ side: "sell", amount: "0.5" }, { balance: { amount: 0.4, currency: "BTC", unit: "base" } });
    expect(sell.warnings.amount?.code).toBe("insufficient-balance");
  });

  it("warns when a post-only order would cross, or a limit is far from the market", () => {
    expect(check({ postOnly: true, price: "101" }).warnings.price?.code).toBe("post-only-crosses");
    expect(check({ postOnly: true, price: "99" }).warnings.price).toBeUndefined();
    expect(check({ price: "150" }).warnings.price).toEqual({
      code: "far-from-last",
      params: { last: 100, percent: 50 },
    });
  });

  it("names the first invalid field in screen order", () => {
    expect(firstInvalid(check({ amount: "", price: "" }))).toBe("price");
    expect(firstInvalid(check({}))).toBeNull();
  });
});
