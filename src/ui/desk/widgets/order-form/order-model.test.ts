import { describe, expect, it } from "vitest";
import {
  amountForPercent,
  amountForTotal,
  availableBalance,
  buildOrderRequest,
  exchangeType,
  feeEstimate,
  floorAmount,
  formatTif,
  normalizeDecimal,
  orderFlags,
  parseLocalDateTime,
  quoteFromTicker,
  totalForAmount,
  type MarketQuote,
  type OrderFormValues,
} from "./order-model";
import { parsePairInfo, limitsFor, DEFAULT_LIMITS } from "./pair-limits";
import { tickerCodec } from "../../../../protocol";

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

const QUOTE: MarketQuote = { last: 100, bid: 99.5, ask: 100.5 };

function v(p: Partial<OrderFormValues>): OrderFormValues {
  return { ...BASE, ...p };
}

describe("order types and flags", () => {
  it("prefixes EXCHANGE in the exchange context only", () => {
    expect(exchangeType("STOP LIMIT", "exchange")).toBe("EXCHANGE STOP LIMIT");
    expect(exchangeType("LIMIT", "margin")).toBe("LIMIT");
    expect(exchangeType("FOK", "derivative")).toBe("FOK");
  });

  it("sets only the flags the type and context allow", () => {
    expect(orderFlags(v({ hidden: true, postOnly: true, oco: true }))).toBe(64 | 4096 | 16384);
    // Market orders cannot be hidden or post-only; reduce-only needs a position (not spot).
    expect(orderFlags(v({ kind: "MARKET", hidden: true, postOnly: true, reduceOnly: true }))).toBe(0);
    expect(orderFlags(v({ context: "margin", reduceOnly: true }))).toBe(1024);
  });
});

describe("buildOrderRequest", () => {
  it("builds an exchange limit buy with decimal strings", () => {
    expect(buildOrderRequest(v({ price: "0100.50", amount: ".25" }), "tBTCUSD")).toEqual({
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: "0.25",
      price: "100.5",
    });
  });

  it("signs a sell and carries stop-limit, trailing, OCO, TIF and leverage fields", () => {
    expect(
      buildOrderRequest(v({ side: "sell", kind: "STOP LIMIT", price: "90", priceAux: "89.5", amount: "1" }), "tBTCUSD"),
    ).toEqual({ type: "EXCHANGE STOP LIMIT", symbol: "tBTCUSD", amount: "-1", price: "90", priceAuxLimit: "89.5" });
    expect(buildOrderRequest(v({ kind: "TRAILING STOP", trailing: "5", price: "ignored" }), "tBTCUSD")).toEqual({
      type: "EXCHANGE TRAILING STOP",
      symbol: "tBTCUSD",
      amount: "0.5",
      priceTrailing: "5",
    });
    expect(buildOrderRequest(v({ oco: true, ocoStop: "120" }), "tBTCUSD")).toMatchObject({
      flags: 16384,
      priceOcoStop: "120",
    });
    const tifMs = parseLocalDateTime("2030-01-02T03:04");
    expect(tifMs).not.toBeNull();
    expect(buildOrderRequest(v({ tifOn: true, tif: "2030-01-02T03:04" }), "tBTCUSD").tif).toBe(
      formatTif(tifMs as number),
    );
    expect(buildOrderRequest(v({ context: "derivative", leverage: "25" }), "tBTCF0:USTF0")).toMatchObject({
      type: "LIMIT",
      lev: 25,
    });
  });

  it("leaves the TIF out of orders that cannot rest", () => {
    expect(buildOrderRequest(v({ kind: "IOC", tifOn: true, tif: "2030-01-02T03:04" }), "tBTCUSD").tif).toBeUndefined();
  });
});

describe("decimals and dates", () => {
  it("normalizes typed decimals", () => {
    expect(normalizeDecimal(" 001.2300 ")).toBe("1.23");
    expect(normalizeDecimal("5.")).toBe("5");
    expect(normalizeDecimal("1e-3")).toBe("0.001");
    expect(normalizeDecimal("100")).toBe("100");
  });

  it("floors to 8 decimals and never rounds up", () => {
    expect(floorAmount(0.123456789)).toBe("0.12345678");
    expect(floorAmount(2)).toBe("2");
    expect(floorAmount(0.1 + 0.2)).toBe("0.3");
    expect(floorAmount(1e-9)).toBe("");
  });

  it("formats the TIF in UTC and refuses impossible dates", () => {
    expect(formatTif(Date.UTC(2030, 0, 2, 3, 4, 5))).toBe("2030-01-02 03:04:05");
    expect(parseLocalDateTime("2030-02-31T10:00")).toBeNull();
    expect(parseLocalDateTime("tomorrow")).toBeNull();
    expect(parseLocalDateTime("2030-02-28T10:00:30")).toBe(new Date(2030, 1, 28, 10, 0, 30).getTime());
  });
});

describe("amount, total and percent", () => {
  it("keeps amount and total consistent at the order's price", () => {
    expect(totalForAmount(v({ amount: "0.5", price: "100" }), QUOTE)).toBe("50");
    expect(amountForTotal("25", v({ price: "100" }), QUOTE)).toBe("0.25");
    // Market orders are figured at the side's best price.
    expect(totalForAmount(v({ kind: "MARKET", amount: "2" }), QUOTE)).toBe("201");
    expect(totalForAmount(v({ kind: "MARKET", side: "sell", amount: "2" }), QUOTE)).toBe("199");
    expect(totalForAmount(v({ price: "" }), QUOTE)).toBe("");
  });

  it("fills a percentage of the quote balance for buys at what the exchange reserves", () => {
    const usd = { amount: 1000, currency: "USD", unit: "quote" as const };
    expect(amountForPercent(v({ price: "100" }), 25, usd, QUOTE)).toBe("2.5");
    expect(amountForPercent(v({ price: "100" }), 100, usd, QUOTE)).toBe("10");
    // Stops reserve the trigger plus 5 %, market buys the ask plus 2 %.
    expect(amountForPercent(v({ kind: "STOP", price: "100" }), 100, usd, QUOTE)).toBe("9.52380952");
    expect(amountForPercent(v({ kind: "MARKET" }), 50, usd, QUOTE)).toBe(floorAmount(500 / (100.5 * 1.02)));
    expect(amountForPercent(v({ price: "" }), 50, usd, QUOTE)).toBeNull();
  });

  it("fills a percentage of the base balance for sells", () => {
    const btc = { amount: 0.8, currency: "BTC", unit: "base" as const };
    expect(amountForPercent(v({ side: "sell" }), 75, btc, QUOTE)).toBe("0.6");
    expect(amountForPercent(v({ side: "sell" }), 75, null, QUOTE)).toBeNull();
  });

  it("estimates the fee on what the order receives", () => {
    expect(feeEstimate(v({ amount: "1" }), QUOTE)).toEqual({ rate: 0.002, amount: 0.002, in: "base" });
    expect(feeEstimate(v({ amount: "1", postOnly: true }), QUOTE).rate).toBe(0.001);
    const sell = feeEstimate(v({ side: "sell", amount: "2", price: "100" }), QUOTE);
    expect(sell.in).toBe("quote");
    expect(sell.amount).toBeCloseTo(0.4, 10);
  });
});

describe("the account's balance", () => {
  const account = {
    wallets: [
      { type: "exchange", currency: "USD", available: 500 },
      { type: "exchange", currency: "BTC", available: 0.3 },
      { type: "margin", currency: "USD", available: 9999 },
    ],
    marginSymbols: { tBTCUSD: { buy: 4, sell: -3 } },
  };

  it("reads the exchange wallet: quote for buys, base for sells", () => {
    expect(availableBalance(account, "exchange", "buy", "tBTCUSD", "BTC", "USD")).toEqual({
      amount: 500,
      currency: "USD",
      unit: "quote",
    });
    expect(availableBalance(account, "exchange", "sell", "tBTCUSD", "BTC", "USD")).toEqual({
      amount: 0.3,
      currency: "BTC",
      unit: "base",
    });
    expect(availableBalance(account, "exchange", "buy", "tETHEUR", "ETH", "EUR")).toBeNull();
    expect(availableBalance(null, "exchange", "buy", "tBTCUSD", "BTC", "USD")).toBeNull();
  });

  it("reads the tradable amount on margin", () => {
    expect(availableBalance(account, "margin", "sell", "tBTCUSD", "BTC", "USD")).toEqual({
      amount: 3,
      currency: "BTC",
      unit: "base",
    });
    expect(availableBalance(account, "margin", "buy", "tETHUSD", "ETH", "USD")).toBeNull();
  });

  it("bounds a derivatives order by the collateral times the leverage until margin info covers it", () => {
    const deriv = { ...account, wallets: [...account.wallets, { type: "margin", currency: "USTF0", available: 200 }] };
    const at = (lev: number) => availableBalance(deriv, "derivative", "sell", "tBTCF0:USTF0", "BTCF0", "USTF0", lev);
    expect(at(10)).toEqual({ amount: 2000, currency: "USTF0", unit: "quote" });
    expect(at(1)?.amount).toBe(200);
    expect(at(0)).toBeNull();
    expect(availableBalance(account, "derivative", "buy", "tBTCF0:USTF0", "BTCF0", "USTF0", 10)).toBeNull();
    const covered = { ...deriv, marginSymbols: { "tBTCF0:USTF0": { buy: 0.5, sell: -0.4 } } };
    expect(availableBalance(covered, "derivative", "buy", "tBTCF0:USTF0", "BTCF0", "USTF0", 10)).toEqual({
      amount: 0.5,
      currency: "BTCF0",
      unit: "base",
    });
  });
});

describe("ticker and pair info", () => {
  it("reads bid, ask and last from the decoded ticker", () => {
    const row = tickerCodec.decode([99, 1, 101, 2, 0, 0, 100, 5, 110, 90]);
    expect(row.ok && quoteFromTicker(row.value)).toEqual({ bid: 99, ask: 101, last: 100 });
    expect(quoteFromTicker(null)).toEqual({ bid: null, ask: null, last: null });
    expect(quoteFromTicker({ bid: 0, ask: Number.NaN, lastPrice: 100 })).toEqual({ bid: null, ask: null, last: 100 });
  });

  it("parses pub:info:pair min and max sizes", () => {
    const table = parsePairInfo([
      ["BTCUSD", [null, null, null, "0.00006", "2000.0", null, null, null, 0.2, 0.1]],
      ["BAD", [null, null, null, "x"]],
      "junk",
    ]);
    expect(limitsFor(table, "BTCUSD")).toEqual({ minAmount: 0.00006, maxAmount: 2000 });
    expect(limitsFor(table, "BAD")).toBe(DEFAULT_LIMITS);
    expect(limitsFor(null, "BTCUSD")).toBe(DEFAULT_LIMITS);
  });
});
