/**
 * The `filter` of a socket `auth` (docs/protocol.md#auth-options), over the wire: each socket gets only the
 * account traffic of its filter families (account-filter.ts lists the types of each), narrowed by
 * pair, currency or wallet when asked; without a filter it gets everything.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { demoSession, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 31, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

const TRADING = new Set(["os", "on", "ou", "oc", "ps", "pn", "pu", "pc", "te", "tu", "miu"]);
const FUNDING = new Set(
  ["fos", "fon", "fou", "foc", "fcs", "fcn", "fcu", "fcc", "fls", "fln", "flu", "flc", "fte", "ftu", "fiu"].values(),
);

const FILTERS = {
  all: undefined,
  trading: ["trading"],
  tBTC: ["trading-tBTCUSD"],
  tETH: ["trading-tETHUSD"],
  funding: ["funding"],
  fUSD: ["funding-fUSD"],
  fBTC: ["funding-fBTC"],
  wallet: ["wallet"],
  exchangeUsd: ["wallet-exchange-USD"],
  balance: ["balance"],
  notify: ["notify"],
  algo: ["algo"],
  balanceAndNotify: ["balance", "notify"],
} as const;
type Name = keyof typeof FILTERS;
const got = {} as Record<Name, unknown[][]>;
/** The frame types a socket got (heartbeats aside). */
const types = (name: Name): Set<unknown> => new Set(got[name].map((f) => f[1]).filter((t) => t !== "hb"));

beforeAll(async () => {
  for (const name of Object.keys(FILTERS) as Name[]) {
    const filter = FILTERS[name];
    got[name] = (await s.socket(filter ? { filter } : {})).frames;
  }
  expect(
    (await s.rest("/v2/auth/w/transfer", { from: "exchange", to: "funding", currency: "USD", amount: "1000" })).status,
  ).toBe(200);
  expect(
    (await s.rest("/v2/auth/w/order/submit", { type: "EXCHANGE LIMIT", symbol: SYMBOL, amount: "0.01", price: "1000" }))
      .status,
  ).toBe(200);
  expect(
    (
      await s.rest("/v2/auth/w/funding/offer/submit", {
        type: "LIMIT",
        symbol: "fUSD",
        amount: "600",
        rate: "0.0002",
        period: 2,
      })
    ).status,
  ).toBe(200);
  // A deposit changes the account's value, which is what brings a `bu`.
  venue.balances.credit(venue.seeded as number, "USD", 5, "Deposit");
  await wait(200);
});

describe("auth filter", () => {
  it("without a filter a socket gets every family", () => {
    for (const t of ["os", "ps", "on", "ws", "wu", "bu", "n", "fos", "fon"]) expect(types("all")).toContain(t);
  });

  it("trading: orders, positions, own trades, margin info; trading-SYMBOL narrows to one pair", () => {
    for (const t of types("trading")) expect(TRADING).toContain(t);
    expect(types("trading")).toContain("on");
    expect(types("trading")).toContain("os");
    for (const t of types("tBTC")) expect(TRADING).toContain(t);
    expect(types("tBTC")).toContain("on");
    for (const t of types("tETH")) expect(TRADING).toContain(t);
    expect(types("tETH")).not.toContain("on");
    expect(types("tETH")).toContain("os");
  });

  it("funding: offers, credits, loans, funding trades and info; funding-fSYMBOL narrows to one currency", () => {
    for (const t of types("funding")) expect(FUNDING).toContain(t);
    expect(types("funding")).toContain("fon");
    expect(types("fUSD")).toContain("fon");
    for (const t of types("fBTC")) expect(FUNDING).toContain(t);
    expect(types("fBTC")).not.toContain("fon");
    expect(got.fBTC.find((f) => f[1] === "fos")?.[2]).toEqual([]);
  });

  it("wallet: ws and wu; wallet-TYPE-CCY narrows to one wallet", () => {
    expect(types("wallet")).toEqual(new Set(["ws", "wu"]));
    const wus = got.wallet.filter((f) => f[1] === "wu").map((f) => (f[2] as unknown[]).slice(0, 2).join("-"));
    expect(wus).toContain("funding-USD");
    expect(types("exchangeUsd")).toEqual(new Set(["ws", "wu"]));
    const ws = got.exchangeUsd.find((f) => f[1] === "ws")?.[2] as unknown[][];
    expect(ws.map((w) => w.slice(0, 2).join("-"))).toEqual(["exchange-USD"]);
    for (const f of got.exchangeUsd.filter((f) => f[1] === "wu"))
      expect((f[2] as unknown[]).slice(0, 2)).toEqual(["exchange", "USD"]);
  });

  it("balance: bu only; notify: n only; algo: nothing here; families combine", () => {
    expect(types("balance")).toEqual(new Set(["bu"]));
    expect(types("notify")).toEqual(new Set(["n"]));
    expect(types("algo")).toEqual(new Set());
    expect(types("balanceAndNotify")).toEqual(new Set(["bu", "n"]));
  });
});
