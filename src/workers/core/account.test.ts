import { createHmac, webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../protocol";
import { AccountCore } from "./account";
import { authMessage, hmacSha384Hex, NonceSource, readAuthReply, type HmacCrypto } from "./auth";

const order = (
  id: number,
  status: string,
  amount: number,
  symbol = "tBTCUSD",
  placed: number | null = null,
): unknown[] => [
  id,
  null,
  1000 + id,
  symbol,
  1548262833379,
  1548262846964,
  amount,
  -1,
  "EXCHANGE LIMIT",
  null,
  null,
  null,
  0,
  status,
  null,
  null,
  15980,
  0,
  0,
  0,
  null,
  null,
  null,
  0,
  0,
  placed,
  null,
  null,
  "API>BFX",
  null,
  null,
  null,
];

describe("account reconciliation (channel 0)", () => {
  it("moves closed orders from the open set to their pair's history", () => {
    const acc = new AccountCore();
    acc.apply("os", [order(1, "ACTIVE", -1), order(2, "ACTIVE", 0.5, "tETHUSD")]);
    expect(acc.orders.size).toBe(2);
    acc.apply("ou", order(1, "PARTIALLY FILLED @ 15980.0(-0.5)", -0.5));
    expect(acc.orders.get(1)?.amount).toBe(-0.5);
    acc.apply("oc", order(1, "EXECUTED @ 15980.0(-0.5): was PARTIALLY FILLED @ 15980.0(-0.5)", 0));
    expect(acc.orders.has(1)).toBe(false);
    expect(acc.history.get("tBTCUSD")?.map((o) => o.id)).toEqual([1]);
    acc.apply("on", order(3, "ACTIVE", 1));
    expect([...acc.orders.keys()].sort()).toEqual([2, 3]);
  });

  it("removes closed positions", () => {
    const acc = new AccountCore();
    const pos = (status: string) => [
      "tETHUST",
      status,
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
      null,
    ];
    acc.apply("ps", [pos("ACTIVE")]);
    expect(acc.positions.size).toBe(1);
    acc.apply("pu", pos("ACTIVE"));
    acc.apply("pc", pos("CLOSED"));
    expect(acc.positions.size).toBe(0);
  });

  it("keeps a wallet's available when the update sends null, and 0 for an empty balance", () => {
    const acc = new AccountCore();
    acc.apply("ws", [["exchange", "BTC", 1.5, 0, 1.2, null, null]]);
    acc.apply("wu", ["exchange", "BTC", 2, 0, null, "Deposit", null]);
    expect(acc.wallets.get("exchange:BTC")?.available).toBe(1.2);
    acc.apply("wu", ["exchange", "BTC", 0, 0, null, null, null]);
    expect(acc.wallets.get("exchange:BTC")?.available).toBe(0);
    acc.apply("bu", [4131.85, 4131.85]);
    expect(acc.balance).toEqual({ aum: 4131.85, aumNet: 4131.85 });
  });

  it("applies the ACTIVE rules to funding offers, credits and loans", () => {
    const acc = new AccountCore();
    const offer = (id: number, status: string) => [
      id,
      "fUSD",
      1,
      1,
      500,
      500,
      "LIMIT",
      null,
      null,
      0,
      status,
      null,
      null,
      null,
      0.0002,
      2,
      0,
      0,
      null,
      0,
      null,
    ];
    acc.apply("fos", [offer(1, "ACTIVE"), offer(2, "CANCELED")]);
    expect([...acc.fundingOffers.keys()]).toEqual([1]);
    acc.apply("fou", offer(1, "PARTIALLY FILLED @ 0.02(100)"));
    expect(acc.fundingOffers.has(1)).toBe(true);
    acc.apply("foc", offer(1, "CANCELED"));
    expect(acc.fundingOffers.size).toBe(0);
    const credit = (id: number, status: string) => [
      id,
      "fUST",
      1,
      1,
      1,
      350,
      0,
      status,
      null,
      null,
      null,
      0,
      30,
      1,
      1,
      0,
      0,
      null,
      0,
      null,
      0,
      "tBTCUST",
    ];
    acc.apply("fcs", [credit(5, "ACTIVE"), credit(6, "CLOSED (used)")]);
    expect([...acc.credits.keys()]).toEqual([5]);
    acc.apply("fcc", credit(5, "CLOSED"));
    expect(acc.credits.size).toBe(0);
  });

  it("deduplicates own trades by id and stores only object notifications", () => {
    const acc = new AccountCore();
    const seen: string[] = [];
    acc.onNotification = (n) => seen.push(n.type);
    acc.apply("te", [402088407, "tETHUST", 1574963975602, 34938060782, -0.2, 153.57, "MARKET", 0, -1, null, null, 0]);
    acc.apply("tu", [
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
    expect(acc.trades).toHaveLength(1);
    expect(acc.trades[0]?.fee).toBe(-0.061668);
    acc.apply("n", [1575287438.515, "on-req", null, null, [1185815098], null, "SUCCESS", "Submitting"]);
    acc.apply("n", [1575287438515, "info", null, null, "just text", null, "INFO", "x"]);
    expect(acc.notifications).toHaveLength(1);
    expect(seen).toEqual(["on-req"]);
  });

  it("counts malformed records without throwing", () => {
    const acc = new AccountCore();
    for (const [type, payload] of [
      ["os", "x"],
      ["on", [1]],
      ["ws", [[1]]],
      ["miu", ["huh"]],
      ["n", null],
    ] as const) {
      expect(() => acc.apply(type, payload)).not.toThrow();
    }
    expect(acc.malformed).toBe(5);
    expect(acc.orders.size).toBe(0);
  });
});

describe("authentication", () => {
  it("signs AUTH+nonce with HMAC-SHA384 exactly as the server checks it", async () => {
    const crypto = webcrypto.subtle as unknown as HmacCrypto;
    const sig = await hmacSha384Hex(crypto, "secret", "AUTH1590649447416000");
    expect(sig).toBe(createHmac("sha384", "secret").update("AUTH1590649447416000").digest("hex"));
    const msg = await authMessage({ kind: "apiKey", key: "k", secret: "secret" }, 1590649447416000, crypto, {
      dms: true,
    });
    expect(msg).toEqual({
      event: "auth",
      apiKey: "k",
      authSig: sig,
      authNonce: 1590649447416000,
      authPayload: "AUTH1590649447416000",
      dms: 4,
    });
    expect(await authMessage({ kind: "token", token: "t0k" }, 1, crypto)).toEqual({ event: "auth", token: "t0k" });
  });

  it("makes strictly increasing microsecond nonces", () => {
    const n = new NonceSource();
    const a = n.next(1000);
    const b = n.next(1000);
    const c = n.next(999);
    expect(a).toBe(1_000_000);
    expect(b).toBe(1_000_001);
    expect(c).toBe(1_000_002);
  });

  it("reads OK and failed auth replies", () => {
    expect(readAuthReply({ event: "auth", status: "OK", chanId: 0, userId: 269499, caps: {} })).toMatchObject({
      ok: true,
      userId: 269499,
    });
    expect(
      readAuthReply({
        event: "auth",
        status: "FAILED",
        chanId: 0,
        code: ERROR_CODES.AUTH_FAILED,
        msg: "apikey: invalid",
      }),
    ).toMatchObject({ ok: false, code: ERROR_CODES.AUTH_FAILED });
    expect(readAuthReply({ event: "auth", status: "FAIL" }).ok).toBe(false);
  });
});
