import { describe, expect, it } from "vitest";
import { decodePairLists, parseDeskMarket, suggestMarkets } from "./symbols";

const KNOWN = [
  "BTCUSD",
  "BTCEUR",
  "BTCUST",
  "ETHUSD",
  "ETHBTC",
  "LTCUSD",
  "XRPUSD",
  "USTUSD",
  "EURUSD",
  "TESTBTC:TESTUSD",
  "BTCF0:USTF0",
];

describe("desk markets (docs/product-rules.md#symbols)", () => {
  it("reads a pair, a prefixed pair and a funding currency, never splitting fUSD as FU/SD", () => {
    expect(parseDeskMarket("BTCUSD")).toEqual({ kind: "pair", pair: "BTCUSD" });
    expect(parseDeskMarket("ethusd")).toEqual({ kind: "pair", pair: "ETHUSD" });
    expect(parseDeskMarket("tBTCUSD")).toEqual({ kind: "pair", pair: "BTCUSD" });
    expect(parseDeskMarket("TESTBTC/TESTUSD")).toEqual({ kind: "pair", pair: "TESTBTC:TESTUSD" });
    expect(parseDeskMarket("FOOBAR")).toEqual({ kind: "pair", pair: "FOOBAR" });
    expect(parseDeskMarket("fUSD")).toEqual({ kind: "funding", currency: "USD" });
    expect(parseDeskMarket("fTESTUSD")).toEqual({ kind: "funding", currency: "TESTUSD" });
    expect(parseDeskMarket("<x>")).toEqual({ kind: "invalid", text: "<x>" });
    expect(parseDeskMarket("TESTBTCTESTUSD")).toEqual({ kind: "invalid", text: "TESTBTCTESTUSD" });
  });

  it("suggests the spot pairs of a funding currency, its base pairs first", () => {
    expect(suggestMarkets(parseDeskMarket("fBTC"), KNOWN)).toEqual(["BTCEUR", "BTCUSD", "BTCUST", "ETHBTC"]);
    expect(suggestMarkets(parseDeskMarket("fUSD"), KNOWN, 3)).toEqual(["BTCUSD", "ETHUSD", "EURUSD"]);
    expect(suggestMarkets(parseDeskMarket("fUST"), KNOWN)).toEqual(["USTUSD", "BTCUST"]);
  });

  it("suggests pairs sharing a leg or the start of the name, closest first", () => {
    expect(suggestMarkets(parseDeskMarket("BTCXYZ"), KNOWN, 3)).toEqual(["BTCEUR", "BTCUSD", "BTCUST"]);
    // Same base and same quote beat one shared leg.
    expect(suggestMarkets(parseDeskMarket("ETHEUR"), KNOWN, 2)).toEqual(["ETHBTC", "ETHUSD"]);
    expect(suggestMarkets(parseDeskMarket("XYZUSD"), KNOWN, 2)).toEqual(["BTCUSD", "ETHUSD"]);
    expect(suggestMarkets(parseDeskMarket("TESTBTCTESTUSD"), KNOWN, 1)).toEqual(["TESTBTC:TESTUSD"]);
    // A spot pair is not sent to a derivative or a paper pair, nor the reverse.
    expect(suggestMarkets(parseDeskMarket("BTCXYZ"), KNOWN)).not.toContain("BTCF0:USTF0");
    expect(suggestMarkets(parseDeskMarket("ETHF0:USTF0"), KNOWN)).toEqual(["BTCF0:USTF0"]);
  });

  it("falls back on the default pair and its quote's spot pairs when nothing is close", () => {
    expect(suggestMarkets(parseDeskMarket("FOOBAR"), KNOWN, 3)).toEqual(["BTCUSD", "ETHUSD", "EURUSD"]);
    expect(suggestMarkets(parseDeskMarket("FOOBAR"), [])).toEqual([]);
  });
});

describe("pair lists", () => {
  it("joins the lists of a conf answer and refuses any other shape", () => {
    expect(decodePairLists([["BTCUSD", "ETHUSD"], ["BTCF0:USTF0"]])).toEqual(["BTCUSD", "ETHUSD", "BTCF0:USTF0"]);
    expect(decodePairLists([["BTCUSD", 1]])).toBeNull();
    expect(decodePairLists({ error: "x" })).toBeNull();
    expect(decodePairLists(["BTCUSD"])).toBeNull();
  });
});
