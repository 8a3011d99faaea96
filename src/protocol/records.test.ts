import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sharedBitfinexDir } from "../../server/exchange/recordings";
import { OrderBook } from "./book/order-book";
import {
  addAlertPrice,
  authTradeCodec,
  balanceCodec,
  candleCodec,
  decodeApiKeyItem,
  decodeFeeEntry,
  decodeFundingInfo,
  decodeMarginInfo,
  decodePairInfo,
  decodeTickersRow,
  decodeWalletUpdate,
  derivStatusCodec,
  fundingCreditCodec,
  fundingOfferCodec,
  fundingTickerCodec,
  fundingTradeCodec,
  isActiveFundingStatus,
  isExchangeOrderType,
  keepCredit,
  ledgerCodec,
  liquidationCodec,
  movementCodec,
  notificationCodec,
  orderCodec,
  orderTypeValue,
  parseAlertKey,
  parseCaps,
  parsePermissionString,
  platformStatusCodec,
  positionCodec,
  publicFundingTradeCodec,
  publicTradeCodec,
  tickerCodec,
  userInfoCodec,
  walletAvailable,
  walletCodec,
} from "./records";

describe("orders", () => {
  const raw = [
    1151718504,
    null,
    1548262833910,
    "tBTCUSD",
    1548262833379,
    1548262846964,
    -0.5,
    -1,
    "EXCHANGE LIMIT",
    null,
    null,
    null,
    0,
    "PARTIALLY FILLED @ 15980.0(-0.5)",
    null,
    null,
    15980,
    15980,
    0,
    0,
    null,
    null,
    null,
    0,
    0,
    null,
    null,
    null,
    "API>BFX",
    null,
    null,
    null,
  ];

  it("decodes the captured record with derived isOco and type_value", () => {
    const d = orderCodec.decode(raw);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.value).toMatchObject({
      id: 1151718504,
      client_id: 1548262833910,
      symbol: "tBTCUSD",
      amount: -0.5,
      original_amount: -1,
      type: "EXCHANGE LIMIT",
      status: "PARTIALLY FILLED @ 15980.0(-0.5)",
      price: 15980,
      price_average: 15980,
      isOco: false,
      type_value: "LIMIT",
      routing: "API>BFX",
    });
  });

  it("marks OCO legs and prefixes their type_value", () => {
    const oco = [...raw];
    oco[25] = 1151718599;
    oco[8] = "EXCHANGE STOP";
    const d = orderCodec.decode(oco);
    expect(d.ok && d.value.isOco).toBe(true);
    expect(d.ok && d.value.type_value).toBe("OCO STOP");
  });

  it("round-trips through the encoder", () => {
    const d = orderCodec.decode(raw);
    if (!d.ok) throw new Error("decode");
    const again = orderCodec.decode(orderCodec.encode(d.value));
    expect(again).toEqual(d);
    expect(orderCodec.encode(d.value)).toHaveLength(32);
  });

  it("gives a typed error for malformed input, never a partial record", () => {
    expect(orderCodec.decode("x")).toEqual({
      ok: false,
      error: { record: "order", field: "", index: -1, reason: "not-an-array" },
    });
    expect(orderCodec.decode([1, 2])).toMatchObject({ ok: false, error: { reason: "too-short" } });
    const bad = [...raw];
    bad[3] = 42;
    expect(orderCodec.decode(bad)).toEqual({
      ok: false,
      error: { record: "order", field: "symbol", index: 3, reason: "wrong-type" },
    });
    expect(orderCodec.decodeList([raw, bad]).ok).toBe(false);
  });
});

describe("trades", () => {
  it("decodes own trades before and after the fee arrives", () => {
    const te = authTradeCodec.decode([
      402088407,
      "tETHUST",
      1574963975602,
      34938060782,
      -0.2,
      153.57,
      "MARKET",
      0,
      -1,
      null,
      null,
      0,
    ]);
    const tu = authTradeCodec.decode([
      402088407,
      "tETHUST",
      1574963975602,
      34938060782,
      -0.2,
      153.57,
      "MARKET",
      0,
      -1,
      -0.061668,
      "USD",
      0,
    ]);
    expect(te.ok && te.value.fee).toBeNull();
    expect(tu.ok && tu.value).toMatchObject({ fee: -0.061668, fee_currency: "USD", isMaker: false, exec_amount: -0.2 });
  });

  it("decodes public trading and funding trades and own funding trades", () => {
    expect(publicTradeCodec.decode([401597393, 1574694475039, 0.005, 7244.9])).toEqual({
      ok: true,
      value: { id: 401597393, mts: 1574694475039, amount: 0.005, price: 7244.9 },
    });
    expect(publicFundingTradeCodec.decode([133323072, 1574694245478, -258.7458086, 0.0002587, 2]).ok).toBe(true);
    expect(fundingTradeCodec.decode([636854, "fUSD", 1575282446000, 41238905, -1000, 0.002, 7, null])).toMatchObject({
      ok: true,
      value: { symbol: "fUSD", offer_id: 41238905, rate: 0.002, period: 7, maker: null },
    });
  });
});

describe("positions, funding, wallets", () => {
  it("decodes a position with its meta", () => {
    const d = positionCodec.decode([
      "tETHUST",
      "ACTIVE",
      0.2,
      153.71,
      0,
      0,
      null,
      null,
      null,
      null,
      null,
      142420429,
      null,
      null,
      null,
      0,
      null,
      0,
      null,
      { reason: "TRADE" },
    ]);
    expect(d.ok && d.value).toMatchObject({
      pair: "tETHUST",
      status: "ACTIVE",
      amount: 0.2,
      basePrice: 153.71,
      id: 142420429,
      posType: 0,
    });
  });

  it("decodes funding offers (first reading) with the ACTIVE rule", () => {
    const d = fundingOfferCodec.decode([
      41238934,
      "fUST",
      1575293959000,
      1575293959000,
      500,
      500,
      "LIMIT",
      null,
      null,
      0,
      "ACTIVE",
      null,
      null,
      null,
      0.02,
      2,
      0,
      0,
      null,
      0,
      null,
    ]);
    expect(d.ok && d.value).toMatchObject({
      id: 41238934,
      amount: 500,
      rate: 0.02,
      period: 2,
      active: true,
      renew: false,
    });
    expect(isActiveFundingStatus("PARTIALLY FILLED @ 0.02(100)")).toBe(true);
    expect(isActiveFundingStatus("CANCELED")).toBe(false);
  });

  it("decodes credits with their position pair and the keep rule", () => {
    const d = fundingCreditCodec.decode([
      26223578,
      "fUST",
      1,
      1575052261000,
      1575296187000,
      350,
      0,
      "ACTIVE",
      null,
      null,
      null,
      0,
      30,
      1575052261000,
      1575293487000,
      0,
      0,
      null,
      0,
      null,
      0,
      "tBTCUST",
    ]);
    expect(d.ok && d.value).toMatchObject({
      side: 1,
      amount: 350,
      period: 30,
      positionPair: "tBTCUST",
      noClose: false,
    });
    expect(keepCredit({ status: "ACTIVE" })).toBe(true);
    expect(keepCredit({ status: "CLOSED (used)" })).toBe(false);
  });

  it("applies the wallet available rules", () => {
    expect(walletCodec.decode(["exchange", "SAN", 19.76, 0, null, null, null])).toMatchObject({
      ok: true,
      value: { available: 19.76 },
    });
    expect(walletCodec.decode(["exchange", "BTC", 1.5, 0, 1.2, "x", { reason: "TRADE" }])).toMatchObject({
      ok: true,
      value: { available: 1.2 },
    });
    expect(walletCodec.decode(["exchange", "BTC", 0, 0, 5, null, null])).toMatchObject({
      ok: true,
      value: { available: 0 },
    });
    expect(walletAvailable(2, null, 1.5)).toBe(1.5);
    expect(walletAvailable(2, null)).toBe(2);
  });

  it("decodes balance, ledger and movement rows", () => {
    expect(balanceCodec.decode([4131.85, 4131.85])).toEqual({ ok: true, value: { aum: 4131.85, aumNet: 4131.85 } });
    expect(
      ledgerCodec.decode([2531822314, "USD", "exchange", 1573596193000, null, -0.3, 8.2, null, "Trading fees"]),
    ).toMatchObject({
      ok: true,
      value: { currency: "USD", time: 1573596193000, amount: -0.3, balance: 8.2, description: "Trading fees" },
    });
    const mv = [
      13105603,
      "ETH",
      "ETHEREUM",
      null,
      null,
      1569348774000,
      1569348774000,
      null,
      null,
      "COMPLETED",
      null,
      null,
      -0.2,
      -0.00135,
      null,
      null,
      "0xabc",
      null,
      null,
      null,
      "0xtx",
      null,
    ];
    expect(movementCodec.decode(mv)).toMatchObject({
      ok: true,
      value: { status: "COMPLETED", amount: -0.2, destinationAddress: "0xabc", txId: "0xtx" },
    });
  });
});

describe("market data", () => {
  it("decodes trading tickers of 10 and 11 fields and funding tickers", () => {
    expect(
      tickerCodec.decode([
        86697,
        14.34954787,
        86723,
        14.75896594,
        1060,
        0.01237494,
        86717,
        544.3267938,
        86898,
        85156,
        null,
      ]),
    ).toMatchObject({
      ok: true,
      value: { bid: 86697, ask: 86723, lastPrice: 86717, low: 85156 },
    });
    const f = fundingTickerCodec.decode([
      0.0003193369863013699,
      0.0002401,
      30,
      3939629.6177260396,
      0.00019012,
      2,
      307776.1592138799,
      -0.00005823,
      -0.2344,
      0.00019016,
      122156333.45260866,
      0.00027397,
      6.8e-7,
      null,
      null,
      3441851.73330503,
    ]);
    expect(f.ok && f.value).toMatchObject({ bidPeriod: 30, askPeriod: 2, frrAmountAvailable: 3441851.73330503 });
    expect(
      decodeTickersRow(["fUSD", 0.0003, 0.0002, 30, 1, 0.0001, 2, 1, 0, 0, 0.0002, 1, 0.0003, 0.0001, null, null, 5]),
    ).toMatchObject({ ok: true, value: { symbol: "fUSD" } });
  });

  it("decodes candles in O, C, H, L order", () => {
    expect(candleCodec.decode([1574698200000, 7399.9, 7379.7, 7399.9, 7371.8, 41.63633658])).toEqual({
      ok: true,
      value: { mts: 1574698200000, open: 7399.9, close: 7379.7, high: 7399.9, low: 7371.8, volume: 41.63633658 },
    });
  });

  it("decodes derivatives status with spread, for 23- and 18-field rows", () => {
    const d = derivStatusCodec.decode([
      1790133734000,
      null,
      86710.46123944,
      86670.5,
      null,
      62210384.95685668,
      null,
      1790150400000,
      0.00015317,
      3873,
      null,
      0,
      null,
      null,
      86676.3172,
      null,
      null,
      8851.89352831,
      null,
      null,
      null,
      0.0005,
      0.0025,
    ]);
    expect(d.ok && d.value.spread).toBeCloseTo(86710.46123944 / 86676.3172 - 1, 12);
    expect(d.ok && d.value.openInterest).toBe(8851.89352831);
    const old = derivStatusCodec.decode([
      1574700235000,
      null,
      7242.85,
      7246.55,
      null,
      413428.41553523,
      null,
      1574726400000,
      0.00005674,
      870,
      null,
      0.00030976,
      null,
      null,
      7237.91,
      null,
      null,
      155.3675257,
    ]);
    expect(old.ok && old.value.fundingAccruedNextCap).toBeNull();
  });

  it("decodes liquidations", () => {
    const d = liquidationCodec.decode([
      "pos",
      142397657,
      1574697680828.2002,
      null,
      "tBSVUSD",
      -2.62932,
      91.583875238719,
      null,
      1,
      1,
      null,
      112.27,
    ]);
    expect(d.ok && d.value).toMatchObject({
      posId: 142397657,
      symbol: "tBSVUSD",
      isMatch: true,
      isMarketSold: true,
      liquidationPrice: 112.27,
    });
  });
});

describe("account extras", () => {
  it("normalizes notification timestamps and levels", () => {
    const n = notificationCodec.decode([
      1575287438.515,
      "on-req",
      null,
      null,
      [1185815098],
      null,
      "SUCCESS",
      "Submitting limit sell order for -2.5 ETH.",
    ]);
    expect(n.ok && n.value).toMatchObject({
      mts: 1575287438515,
      level: "success",
      type: "on-req",
      ttl: 6000,
      message: "Submitting limit sell order for -2.5 ETH.",
    });
    const e = notificationCodec.decode([1575291219660, "oc-req", null, null, null, 10001, "ERROR", "Order not found."]);
    expect(e.ok && e.value).toMatchObject({ mts: 1575291219660, level: "error", code: 10001 });
  });

  it("decodes margin info and funding info", () => {
    expect(decodeMarginInfo(["base", [-13.01464, 0, 49331.70267297, 49318.68803297, 27]])).toMatchObject({
      ok: true,
      value: { kind: "base", required: 27 },
    });
    expect(
      decodeMarginInfo(["sym", "tETHUSD", [149361.09, 149639.26, 830.01, 895.06, null, null, null, null]]),
    ).toMatchObject({ ok: true, value: { kind: "sym", symbol: "tETHUSD", buy: 830.01 } });
    expect(decodeFundingInfo(["sym", "fUSD", [0.00085, 0, 1.84, 0]])).toMatchObject({
      ok: true,
      value: { symbol: "fUSD", durationLoan: 1.84 },
    });
    expect(decodeMarginInfo(["nope"]).ok).toBe(false);
  });

  it("decodes user info from its 55-field record", () => {
    const raw: unknown[] = new Array(55).fill(null);
    raw[0] = 269499;
    raw[1] = "demo@example.com";
    raw[2] = "demo";
    raw[3] = 1600000000000;
    raw[4] = 1;
    raw[5] = 2;
    raw[8] = "en";
    raw[10] = 1;
    raw[21] = 1;
    raw[26] = ["otp"];
    const d = userInfoCodec.decode(raw);
    expect(d.ok && d.value).toMatchObject({
      id: 269499,
      email: "demo@example.com",
      verified: true,
      verificationLevel: 2,
      isPptEnabled: true,
      tfaType: "otp",
      isGroupWithdrawEnabled: true,
    });
    expect(userInfoCodec.decode([1]).ok).toBe(false);
  });

  it("parses both permission formats and caps as object or string", () => {
    expect(parsePermissionString("orders-read,orders-write,wallets-read")).toEqual({
      orders: { read: true, write: true },
      wallets: { read: true, write: false },
    });
    expect(parsePermissionString("o:f:w:1")).toEqual({
      orders: { read: true, write: true },
      funding: { read: true, write: true },
      wallets: { read: true, write: true },
    });
    expect(parsePermissionString("a:o:0")).toEqual({
      account: { read: true, write: false },
      orders: { read: true, write: false },
    });
    const caps = { orders: { read: 1, write: 0 } };
    expect(parseCaps(caps)).toEqual({ orders: { read: true, write: false } });
    expect(parseCaps(JSON.stringify({ orders: { read: "1", write: "1" } }))).toEqual({
      orders: { read: true, write: true },
    });
    expect(parseCaps("{bad")).toEqual({});
    expect(decodeApiKeyItem({ id: "k1", name: "bot", caps: "orders-read" })).toEqual({
      ok: true,
      value: { id: "k1", apiLabel: "bot", permissions: { orders: { read: true, write: false } } },
    });
  });

  it("parses alert keys and adds an alert price only once per pair", () => {
    expect(parseAlertKey("price:tBTCUSD:30000")).toEqual({ index: "price", symbol: "tBTCUSD", price: 30000 });
    expect(parseAlertKey("price:tTESTBTC:TESTUSD:1.5")).toEqual({
      index: "price",
      symbol: "tTESTBTC:TESTUSD",
      price: 1.5,
    });
    expect(parseAlertKey("nonsense")).toBeNull();
    expect(addAlertPrice([100], 100)).toEqual([100]);
    expect(addAlertPrice([100], 90)).toEqual([90, 100]);
  });

  it("maps fee overrides to pair, taker_fee, maker_fee", () => {
    expect(decodeFeeEntry(["BTCUSD", [0.002, 0.001]])).toEqual({
      ok: true,
      value: { pair: "BTCUSD", taker_fee: 0.002, maker_fee: 0.001 },
    });
    expect(decodeFeeEntry(["BTCUSD", [null, 0.001]]).ok).toBe(false);
  });
});

describe("wallet updates, pair info, platform status, order types", () => {
  it("keeps the stored available when a wallet update sends null", () => {
    const stored = (type: string, currency: string) => (type === "exchange" && currency === "BTC" ? 0.7 : null);
    expect(decodeWalletUpdate(["exchange", "BTC", 1.5, 0, null, null, null], stored)).toMatchObject({
      ok: true,
      value: { balance: 1.5, available: 0.7 },
    });
    expect(decodeWalletUpdate(["exchange", "BTC", 1.5, 0, 1.2, null, null], stored)).toMatchObject({
      ok: true,
      value: { available: 1.2 },
    });
    expect(decodeWalletUpdate(["exchange", "ETH", 2, 0, null, null, null], stored)).toMatchObject({
      ok: true,
      value: { available: 2 },
    });
    expect(decodeWalletUpdate(["exchange"], stored).ok).toBe(false);
  });

  it("reads pub:info:pair sizes, which travel as decimal strings", () => {
    expect(decodePairInfo(["BTCUSD", [null, null, null, "0.00006", "2000.0", null, null, null, 0.2, 0.1]])).toEqual({
      ok: true,
      value: { pair: "BTCUSD", minOrderSize: 0.00006, maxOrderSize: 2000, initialMargin: 0.2, minMargin: 0.1 },
    });
    expect(decodePairInfo(["BTCUSD", [null, null, null, "x"]]).ok).toBe(false);
    expect(decodePairInfo([1, []]).ok).toBe(false);
  });

  it("reads the platform status", () => {
    expect(platformStatusCodec.decode([1])).toEqual({ ok: true, value: { status: 1 } });
    expect(platformStatusCodec.decode([]).ok).toBe(false);
  });

  it("tells exchange (spot) order types from margin ones", () => {
    expect(isExchangeOrderType("EXCHANGE LIMIT")).toBe(true);
    expect(isExchangeOrderType("LIMIT")).toBe(false);
    expect(orderTypeValue("EXCHANGE STOP LIMIT", false)).toBe("STOP LIMIT");
    expect(orderTypeValue("EXCHANGE STOP", true)).toBe("OCO STOP");
  });
});

const shared = sharedBitfinexDir();
describe.skipIf(!shared)("every account and market record of the example frames decodes", () => {
  it("channel-0 records", () => {
    const lines = readFileSync(`${shared}/ws-message-examples.jsonl`, "utf8").trim().split("\n");
    const decoders: Record<string, (r: unknown) => { ok: boolean }> = {
      on: (r) => orderCodec.decode(r),
      ou: (r) => orderCodec.decode(r),
      oc: (r) => orderCodec.decode(r),
      os: (r) => orderCodec.decodeList(r),
      te: (r) => authTradeCodec.decode(r),
      tu: (r) => authTradeCodec.decode(r),
      fte: (r) => fundingTradeCodec.decode(r),
      ftu: (r) => fundingTradeCodec.decode(r),
      ws: (r) => walletCodec.decodeList(r),
      wu: (r) => walletCodec.decode(r),
      ps: (r) => positionCodec.decodeList(r),
      fos: (r) => fundingOfferCodec.decodeList(r),
      fon: (r) => fundingOfferCodec.decode(r),
      fcs: (r) => fundingCreditCodec.decodeList(r),
      bu: (r) => balanceCodec.decode(r),
      miu: (r) => decodeMarginInfo(r),
      fiu: (r) => decodeFundingInfo(r),
      n: (r) => notificationCodec.decode(r),
    };
    let n = 0;
    for (const line of lines) {
      const ex = JSON.parse(line) as { dir: string; channel: string; frame: string; what: string };
      if (ex.dir !== "s2c" || ex.channel !== "auth") continue;
      const frame: unknown = JSON.parse(ex.frame);
      if (!Array.isArray(frame) || frame[0] !== 0 || typeof frame[1] !== "string") continue;
      const decode = decoders[frame[1]];
      if (!decode) continue;
      expect(decode(frame[2]).ok, ex.what).toBe(true);
      n++;
    }
    expect(n).toBeGreaterThan(15);
  });

  it("the fixtures' trades, tickers and books", () => {
    // Each kind must meet at least one fixture: a renamed or missing file fails here instead of
    // leaving the test with nothing to check.
    const checks: Record<string, (data: unknown, f: string) => void> = {
      "trades-pairs": (data, f) => expect(publicTradeCodec.decodeList(data).ok, f).toBe(true),
      "trades-funding": (data, f) => expect(publicFundingTradeCodec.decodeList(data).ok, f).toBe(true),
      "response-ticker-pairs.json": (data, f) => expect(tickerCodec.decode(data).ok, f).toBe(true),
      "response-ticker-funding.json": (data, f) => expect(fundingTickerCodec.decode(data).ok, f).toBe(true),
      "ws2-server-ticker-funding": (data, f) =>
        expect(fundingTickerCodec.decode((data as unknown[])[1]).ok, f).toBe(true),
      "ws2-server-trades": (data, f) => expect(publicTradeCodec.decodeList((data as unknown[])[1]).ok, f).toBe(true),
      "order-book": (data, f) => {
        const book = new OrderBook({ kind: f.includes("R0") ? "raw" : "price", len: 100 });
        expect(book.applySnapshot((data as unknown[])[1]), f).toBe(true);
        expect(book.malformed, f).toBe(0);
        expect(book.bids.size + book.asks.size, f).toBeGreaterThan(10);
        expect(Number.isInteger(book.checksum()), f).toBe(true);
      },
    };
    const met = new Set<string>();
    const dir = `${shared}/fixtures`;
    for (const f of readdirSync(dir)) {
      const data: unknown = JSON.parse(readFileSync(`${dir}/${f}`, "utf8"));
      for (const [kind, check] of Object.entries(checks))
        if (f.includes(kind)) {
          check(data, f);
          met.add(kind);
        }
    }
    expect([...met].sort()).toEqual(Object.keys(checks).sort());
  });
});
