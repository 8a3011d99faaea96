import { describe, expect, it } from "vitest";
import { notificationCodec, otcQuoteCodec, otcTradeCodec, type OtcQuote } from "../../protocol";
import type { Call } from "./api";
import { OtcModel } from "./model";

const QUOTE: OtcQuote = {
  id: "b".repeat(32),
  pair: "BTCUSD",
  side: "buy",
  amount: 0.1,
  price: 87_000,
  total: 8700,
  mts: 5_000,
  expires: 20_000,
};

/** A scripted exchange: answers each path from a queue, and records what was asked. */
function exchange(answers: Record<string, { status: number; body: unknown }[]>) {
  const asked: string[] = [];
  const call: Call = (path) => {
    asked.push(path);
    return Promise.resolve(answers[path]?.shift() ?? { status: 0, body: null });
  };
  return { call, asked };
}

const accepted = {
  status: 200,
  body: notificationCodec.encode({
    mts: 9_000,
    type: "acc_otc",
    mid: null,
    data: otcTradeCodec.encode({ ...QUOTE, mts: 9_000, tradeId: 42 }),
    code: null,
    status: "SUCCESS",
    text: null,
  }),
};

describe("OtcModel", () => {
  it("refuses a block below the minimum before asking anything", async () => {
    const ex = exchange({});
    const m = new OtcModel({ call: ex.call, now: () => 0 });
    const s = await m.quote({ pair: "BTCUSD", side: "buy", amount: "0.01" });
    expect(s).toMatchObject({ status: "failed", error: { kind: "refused", refusal: "tooSmall" } });
    expect(ex.asked).toEqual([]);
  });

  it("quotes, counts the lifetime from its arrival, and accepts once", async () => {
    let now = 100_000;
    const ex = exchange({
      "/v2/auth/w/int/otc/quote": [{ status: 200, body: otcQuoteCodec.encode(QUOTE) }],
      "/v2/auth/w/int/otc/accept": [accepted],
    });
    const m = new OtcModel({ call: ex.call, now: () => now });
    const q = await m.quote({ pair: "BTCUSD", side: "buy", amount: "0.1" });
    // 15 s of the exchange's clock, counted on this one from now (the clocks differ by far more).
    expect(q).toMatchObject({ status: "quoted", expiresAt: 115_000 });
    now = 114_999;
    expect(m.expired(now)).toBe(false);
    const done = await m.accept();
    expect(done).toMatchObject({ status: "accepted", trade: { tradeId: 42, total: 8700 } });
  });

  it("does not send an expired quote: it says so and forgets it", async () => {
    let now = 0;
    const ex = exchange({ "/v2/auth/w/int/otc/quote": [{ status: 200, body: otcQuoteCodec.encode(QUOTE) }] });
    const m = new OtcModel({ call: ex.call, now: () => now });
    await m.quote({ pair: "BTCUSD", side: "buy", amount: "0.1" });
    now = 15_000;
    expect(m.expired(now)).toBe(true);
    expect(await m.accept()).toMatchObject({ status: "failed", error: { refusal: "expired" }, quote: null });
    expect(ex.asked).toEqual(["/v2/auth/w/int/otc/quote"]);
  });

  it("maps the exchange's refusal, and keeps the quote only when the answer was lost", async () => {
    const ex = exchange({
      "/v2/auth/w/int/otc/quote": [
        { status: 200, body: otcQuoteCodec.encode(QUOTE) },
        { status: 200, body: otcQuoteCodec.encode(QUOTE) },
      ],
      "/v2/auth/w/int/otc/accept": [
        { status: 500, body: ["error", 10001, "amount: insufficient balance in the wallet"] },
        { status: 0, body: null },
        accepted,
      ],
    });
    const m = new OtcModel({ call: ex.call, now: () => 0 });
    await m.quote({ pair: "BTCUSD", side: "buy", amount: "0.1" });
    expect(await m.accept()).toMatchObject({ status: "failed", error: { refusal: "insufficient" }, quote: null });
    await m.quote({ pair: "BTCUSD", side: "buy", amount: "0.1" });
    expect(await m.accept()).toMatchObject({ status: "failed", error: { kind: "unreachable" }, quote: QUOTE });
    expect(await m.accept()).toMatchObject({ status: "accepted" });
  });
});
