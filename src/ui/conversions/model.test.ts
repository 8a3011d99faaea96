import { describe, expect, it } from "vitest";
import {
  CURRENCY_AGREEMENTS,
  conversionAgreementRefusal,
  conversionQuoteCodec,
  CONVERSION_REFUSALS,
  encodeApiError,
  READ_ONLY_CONTEXT_MESSAGE,
  type ConversionQuote,
} from "../../protocol";
import { conversionErrorOf } from "./api";
import { ConversionModel, conversionFormError, maxAmount, secondsLeft } from "./model";

const QUOTE: ConversionQuote = {
  id: "0123456789abcdef0123456789abcdef",
  from: "USD",
  to: "UST",
  wallet: "exchange",
  amount: 100,
  rate: 1,
  fee: 0.1,
  receive: 99.9,
  // The exchange's clock is far from the browser's: only the lifetime (15 s) counts.
  mts: 5_000,
  expires: 20_000,
};

const notification = (data: unknown): unknown[] => [1, "acc_cv", null, null, data, null, "SUCCESS", "done"];
const refusal = (msg: string): { status: number; body: unknown } => ({ status: 500, body: encodeApiError(10001, msg) });

type Reply = { status: number; body: unknown };

/** A scripted exchange: each path answers from its queue (or its last answer), every call recorded. */
function fakeExchange(script: Record<string, Reply[]>) {
  const calls: { path: string; body: unknown }[] = [];
  const holds = new Map<string, Promise<void>>();
  return {
    calls,
    /** Holds the next answer of `path` until the returned function is called. */
    hold(path: string): () => void {
      let release = (): void => undefined;
      holds.set(path, new Promise<void>((r) => (release = r)));
      return () => release();
    },
    call: async (path: string, body: unknown): Promise<Reply> => {
      calls.push({ path, body });
      const held = holds.get(path);
      if (held) {
        holds.delete(path);
        await held;
      }
      const queue = script[path];
      if (!queue || queue.length === 0) return { status: 404, body: encodeApiError(10020, "not found") };
      return queue.length > 1 ? (queue.shift() as Reply) : (queue[0] as Reply);
    },
  };
}

const UST = CURRENCY_AGREEMENTS["UST"]?.version ?? "";
const accepted = (list: { currency: string; version: string }[]): Reply => ({
  status: 200,
  body: list.map((a) => ({ ...a, mts: 1 })),
});
const form = { from: "USD", to: "UST", wallet: "exchange" as const, amount: "100" };

function setup(script: Record<string, Reply[]>, clock = { now: 1_000_000 }) {
  const ex = fakeExchange(script);
  const model = new ConversionModel({ call: ex.call, now: () => clock.now });
  return { ex, model, clock };
}

describe("the form", () => {
  it("is checked by the exchange's rules before anything is sent", async () => {
    const { ex, model } = setup({});
    for (const [amount, refusal] of [
      ["abc", "amount"],
      ["-1", "amount"],
      ["Infinity", "amount"],
      ["1e3", "amount"],
      ["0.123456789", "precision"],
      ["500", "insufficient"],
    ] as const) {
      const s = await model.quote({ ...form, amount }, 200);
      expect(s).toMatchObject({ status: "failed", error: { kind: "refused", refusal } });
    }
    expect(await model.quote({ ...form, to: "USD" }, 200)).toMatchObject({ error: { refusal: "sameCurrency" } });
    expect(await model.quote({ ...form, to: "USTF0" }, 200)).toMatchObject({ error: { refusal: "pair" } });
    expect(ex.calls).toEqual([]);
    expect(conversionFormError(form, 100)).toBeNull();
  });

  it("gives Max as the available amount cut to 8 decimals, never rounded up", () => {
    expect(maxAmount(0.3, "USD")).toBe("0.3");
    expect(maxAmount(1.123456789, "USD")).toBe("1.12345678");
    expect(maxAmount(100000, "JPY")).toBe("100000");
    expect(maxAmount(0, "USD")).toBe("0");
  });
});

describe("quote, then convert", () => {
  it("goes idle → quoting → quoted → converting → succeeded", async () => {
    const { ex, model, clock } = setup({
      "/v2/auth/r/int/currency/agreements": [accepted([{ currency: "UST", version: UST }])],
      "/v2/auth/w/int/convert/quote": [{ status: 200, body: conversionQuoteCodec.encode(QUOTE) }],
      "/v2/auth/w/int/convert": [{ status: 200, body: notification({ ...QUOTE, expires: undefined, mts: 7 }) }],
    });
    const seen: string[] = [];
    model.subscribe(() => seen.push(model.state().status));
    const quoted = await model.quote({ ...form, amount: " 100 " }, 1000);
    expect(quoted).toEqual({ status: "quoted", quote: QUOTE, expiresAt: clock.now + 15_000 });
    expect(ex.calls[1]).toEqual({
      path: "/v2/auth/w/int/convert/quote",
      body: { from: "USD", to: "UST", wallet: "exchange", amount: "100" },
    });
    clock.now += 14_000;
    expect(secondsLeft(clock.now + 1000, clock.now)).toBe(1);
    expect(model.expired(clock.now)).toBe(false);
    const done = await model.convert();
    expect(done).toMatchObject({ status: "succeeded", done: { id: QUOTE.id, receive: 99.9, mts: 7 } });
    expect(ex.calls[2]).toEqual({ path: "/v2/auth/w/int/convert", body: { quote: QUOTE.id } });
    expect(seen).toEqual(["quoting", "quoted", "converting", "succeeded"]);
  });

  it("says a quote has run out and converts nothing at it; a new quote works", async () => {
    const { ex, model, clock } = setup({
      "/v2/auth/r/int/currency/agreements": [accepted([{ currency: "UST", version: UST }])],
      "/v2/auth/w/int/convert/quote": [{ status: 200, body: conversionQuoteCodec.encode(QUOTE) }],
    });
    await model.quote(form, 1000);
    clock.now += 15_000;
    expect(model.expired(clock.now)).toBe(true);
    expect(await model.convert()).toMatchObject({ status: "failed", error: { refusal: "expired" }, quote: null });
    expect(ex.calls.some((c) => c.path === "/v2/auth/w/int/convert")).toBe(false);
    expect(await model.quote(form, 1000)).toMatchObject({ status: "quoted" });
  });

  it("drops the quote when the exchange says it expired; keeps it when the answer was lost", async () => {
    const { model } = setup({
      "/v2/auth/r/int/currency/agreements": [accepted([{ currency: "UST", version: UST }])],
      "/v2/auth/w/int/convert/quote": [{ status: 200, body: conversionQuoteCodec.encode(QUOTE) }],
      "/v2/auth/w/int/convert": [
        { status: 0, body: null },
        { status: 200, body: notification({ ...QUOTE, expires: undefined }) },
      ],
    });
    await model.quote(form, 1000);
    const lost = await model.convert();
    expect(lost).toMatchObject({ status: "failed", error: { kind: "unreachable" }, quote: QUOTE });
    // The same quote again: the exchange converts it at most once.
    expect(await model.convert()).toMatchObject({ status: "succeeded" });

    const stale = setup({
      "/v2/auth/r/int/currency/agreements": [accepted([{ currency: "UST", version: UST }])],
      "/v2/auth/w/int/convert/quote": [{ status: 200, body: conversionQuoteCodec.encode(QUOTE) }],
      "/v2/auth/w/int/convert": [refusal(CONVERSION_REFUSALS.expired)],
    });
    await stale.model.quote(form, 1000);
    expect(await stale.model.convert()).toMatchObject({
      status: "failed",
      error: { kind: "refused", refusal: "expired" },
      quote: null,
    });
  });

  it("drops an answer to a form that has changed since", async () => {
    const { ex, model } = setup({
      "/v2/auth/r/int/currency/agreements": [accepted([{ currency: "UST", version: UST }])],
      "/v2/auth/w/int/convert/quote": [{ status: 200, body: conversionQuoteCodec.encode(QUOTE) }],
    });
    await model.load();
    const release = ex.hold("/v2/auth/w/int/convert/quote");
    const pending = model.quote(form, 1000);
    await Promise.resolve();
    model.edited();
    release();
    await pending;
    expect(model.state()).toEqual({ status: "idle" });
  });
});

describe("the currency agreement", () => {
  it("asks before quoting, and quotes once accepted", async () => {
    const { ex, model } = setup({
      "/v2/auth/r/int/currency/agreements": [accepted([])],
      "/v2/auth/w/int/currency/agreement": [{ status: 200, body: { currency: "UST", version: UST, mts: 9 } }],
      "/v2/auth/w/int/convert/quote": [{ status: 200, body: conversionQuoteCodec.encode(QUOTE) }],
    });
    expect(await model.quote(form, 1000)).toEqual({
      status: "agreement",
      currency: "UST",
      accepting: false,
      error: null,
    });
    expect(ex.calls.map((c) => c.path)).toEqual(["/v2/auth/r/int/currency/agreements"]);
    expect(await model.accept()).toMatchObject({ status: "quoted", quote: QUOTE });
    expect(ex.calls[1]).toEqual({ path: "/v2/auth/w/int/currency/agreement", body: { currency: "UST", version: UST } });
  });

  it("asks for each currency in turn, and cancelling asks nothing more", async () => {
    const { ex, model } = setup({
      "/v2/auth/r/int/currency/agreements": [accepted([])],
      "/v2/auth/w/int/currency/agreement": [
        { status: 200, body: { currency: "TRY", version: CURRENCY_AGREEMENTS["TRY"]?.version, mts: 9 } },
      ],
    });
    await model.quote({ ...form, from: "TRY" }, 1000);
    expect(model.state()).toMatchObject({ status: "agreement", currency: "TRY" });
    expect(await model.accept()).toMatchObject({ status: "agreement", currency: "UST" });
    model.cancelAgreement();
    expect(model.state()).toEqual({ status: "idle" });
    expect(ex.calls.filter((c) => c.path === "/v2/auth/w/int/convert/quote")).toEqual([]);
  });

  it("takes the agreement step when the exchange refuses for one, and keeps a refused acceptance's error", async () => {
    const { model } = setup({
      "/v2/auth/r/int/currency/agreements": [accepted([{ currency: "UST", version: UST }])],
      "/v2/auth/w/int/convert/quote": [refusal(conversionAgreementRefusal("UST"))],
      "/v2/auth/w/int/currency/agreement": [refusal("version: not the current version")],
    });
    expect(await model.quote(form, 1000)).toMatchObject({ status: "agreement", currency: "UST" });
    expect(await model.accept()).toMatchObject({
      status: "agreement",
      accepting: false,
      error: { kind: "agreement", refusal: "version" },
    });
  });
});

describe("errors", () => {
  it("reads each failure as the dialog tells it", () => {
    expect(conversionErrorOf(0, null)).toEqual({ kind: "unreachable" });
    expect(conversionErrorOf(500, encodeApiError(10001, READ_ONLY_CONTEXT_MESSAGE))).toEqual({ kind: "read-only" });
    expect(conversionErrorOf(500, encodeApiError(10001, CONVERSION_REFUSALS.insufficient))).toEqual({
      kind: "refused",
      refusal: "insufficient",
      currency: null,
    });
    expect(conversionErrorOf(500, encodeApiError(10001, conversionAgreementRefusal("BRL")))).toEqual({
      kind: "refused",
      refusal: "agreement",
      currency: "BRL",
    });
    expect(conversionErrorOf(500, encodeApiError(10001, "something new"))).toEqual({ kind: "server" });
    expect(conversionErrorOf(502, "<html>")).toEqual({ kind: "server" });
  });
});
