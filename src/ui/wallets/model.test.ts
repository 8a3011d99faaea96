/**
 * The wallets page's rules: which wallets show, in which order; and the quick transfer's states,
 * its checks before anything is sent, and its request id (kept across retries of one transfer,
 * new for the next), so a retry never moves money twice.
 */
import { describe, expect, it } from "vitest";
import { walletCodec, type Position, type Wallet } from "../../protocol";
import {
  accountTotals,
  allOf,
  positionQuote,
  TransferModel,
  transferErrorOf,
  transferFormProblem,
  walletRows,
  type TransferForm,
} from "./model";

const wallet = (type: string, currency: string, balance: number, available: number | null = null): Wallet => {
  const d = walletCodec.decode([type, currency, balance, 0, available, null, null]);
  if (!d.ok) throw new Error("bad wallet");
  return d.value;
};

describe("walletRows", () => {
  const all = [
    wallet("funding", "USD", 50),
    wallet("exchange", "USD", 100),
    wallet("contribution", "BTC", 1),
    wallet("exchange", "ETH", 0.000001),
    wallet("margin", "USD", 0),
    wallet("creditline", "BTC", 2),
    wallet("exchange", "BTC", 0.5),
  ];
  const ids = (ws: Wallet[]): string[] => ws.map((w) => `${w.type}:${w.currency}`);

  it("groups by currency with wallet types in a fixed order, creditline and contribution included", () => {
    expect(ids(walletRows(all, false, 0.00001))).toEqual([
      "exchange:BTC",
      "creditline:BTC",
      "contribution:BTC",
      "exchange:ETH",
      "exchange:USD",
      "margin:USD",
      "funding:USD",
    ]);
  });

  it("hides balances below the threshold when asked", () => {
    expect(ids(walletRows(all, true, 0.00001))).toEqual([
      "exchange:BTC",
      "creditline:BTC",
      "contribution:BTC",
      "exchange:USD",
      "funding:USD",
    ]);
    expect(ids(walletRows(all, true, 60))).toEqual(["exchange:USD"]);
  });
});

const form = (amount: string, over: Partial<TransferForm> = {}): TransferForm => ({
  from: "exchange",
  to: "margin",
  currency: "EUR",
  amount,
  ...over,
});

describe("transferFormProblem", () => {
  it("refuses what the exchange would refuse, before sending", () => {
    expect(transferFormProblem(form("10"), 100)).toBeNull();
    expect(transferFormProblem(form(" 0.5 "), 100)).toBeNull();
    for (const bad of ["", "0", "-1", "abc", "NaN", "Infinity", "1e3", "0x10", "1,5"])
      expect(transferFormProblem(form(bad), 100), bad).toBe("amount");
    expect(transferFormProblem(form("0.123456789"), 100)).toBe("precision");
    expect(transferFormProblem(form("100.00000001"), 100)).toBe("insufficient");
    expect(transferFormProblem(form("1", { to: "exchange" }), 100)).toBe("sameWallet");
    expect(transferFormProblem(form("1", { currency: "" }), 100)).toBe("currency");
  });

  it("lets the same wallet type on both sides credit another account of the group", () => {
    expect(transferFormProblem(form("1", { to: "exchange", toAccount: 7 }), 100)).toBeNull();
    expect(transferFormProblem(form("101", { to: "exchange", toAccount: 7 }), 100)).toBe("insufficient");
  });
});

describe("allOf", () => {
  it("gives the whole available amount, cut to 8 decimals and never rounded up", () => {
    expect(allOf(0.3, "BTC")).toBe("0.3");
    expect(allOf(1.123456789, "BTC")).toBe("1.12345678");
    expect(allOf(250, "USD")).toBe("250");
    expect(allOf(0, "USD")).toBe("0");
  });
});

function scripted(replies: { status: number; body: unknown }[]) {
  const sent: Record<string, unknown>[] = [];
  let ids = 0;
  const model = new TransferModel({
    newId: () => `request-${++ids}`,
    call: async (_path, body) => {
      await Promise.resolve();
      sent.push(body as Record<string, unknown>);
      return replies.shift() ?? { status: 0, body: null };
    },
  });
  return { model, sent };
}

const OK = { status: 200, body: [0, "acc_tf", null, null, [], null, "SUCCESS", "ok"] };

describe("TransferModel", () => {
  it("goes idle → converting → succeeded, and a bad amount fails without a call", async () => {
    const { model, sent } = scripted([OK]);
    const seen: string[] = [];
    model.subscribe(() => seen.push(model.state().status));
    expect(model.state().status).toBe("idle");
    const bad = await model.submit(form("abc"), 100);
    expect(bad).toMatchObject({ status: "failed", error: { kind: "refused", refusal: "amount" } });
    expect(sent).toHaveLength(0);
    model.clear();
    expect(model.state().status).toBe("idle");
    const good = await model.submit(form("10"), 100);
    expect(good.status).toBe("succeeded");
    expect(seen).toEqual(["failed", "idle", "converting", "succeeded"]);
    expect(sent[0]).toEqual({ from: "exchange", to: "margin", currency: "EUR", amount: "10", request_id: "request-1" });
  });

  it("retries one transfer under one request id, and gives the next transfer a new one", async () => {
    const { model, sent } = scripted([{ status: 0, body: null }, OK, OK]);
    const lost = await model.submit(form("10"), 100);
    expect(lost).toMatchObject({ status: "failed", error: { kind: "unreachable" } });
    await model.submit(form("10"), 100);
    await model.submit(form("10"), 100);
    expect(sent.map((b) => b["request_id"])).toEqual(["request-1", "request-1", "request-2"]);
  });

  it("credits another account with user_id_dst, and another account is another transfer (a new id)", async () => {
    const { model, sent } = scripted([{ status: 0, body: null }, OK, OK]);
    await model.submit(form("10", { to: "exchange", toAccount: 7 }), 100);
    await model.submit(form("10", { to: "exchange", toAccount: 7 }), 100);
    expect(model.state()).toMatchObject({ status: "succeeded", done: { toAccount: 7 } });
    await model.submit(form("10", { to: "exchange", toAccount: 8 }), 100);
    expect(sent[0]).toEqual({
      from: "exchange",
      to: "exchange",
      currency: "EUR",
      amount: "10",
      request_id: "request-1",
      user_id_dst: 7,
    });
    expect(sent.map((b) => [b["user_id_dst"], b["request_id"]])).toEqual([
      [7, "request-1"],
      [7, "request-1"],
      [8, "request-2"],
    ]);
  });

  it("sends USDt to the derivatives wallet as collateral with currency_to, a transfer of its own", async () => {
    const { model, sent } = scripted([OK, OK]);
    await model.submit(form("10", { currency: "UST", currencyTo: "USTF0" }), 100);
    await model.submit(form("10", { currency: "UST" }), 100);
    expect(sent[0]).toEqual({
      from: "exchange",
      to: "margin",
      currency: "UST",
      currency_to: "USTF0",
      amount: "10",
      request_id: "request-1",
    });
    // Plain USDt into the margin wallet: no currency_to, and not the same transfer (a new id).
    expect(sent[1]).toEqual({ from: "exchange", to: "margin", currency: "UST", amount: "10", request_id: "request-2" });
  });

  it("tells the exchange's refusals and a read-only context apart, and ignores a submit while one runs", async () => {
    const { model, sent } = scripted([
      { status: 500, body: ["error", 10001, "amount: insufficient balance in the source wallet"] },
      { status: 500, body: ["error", 10001, "context: read-only"] },
    ]);
    const first = model.submit(form("10"), 100);
    const second = await model.submit(form("10"), 100);
    expect(second.status).toBe("converting");
    expect(await first).toMatchObject({ error: { kind: "refused", refusal: "insufficient" } });
    expect(await model.submit(form("11"), 100)).toMatchObject({ error: { kind: "read-only" } });
    expect(sent).toHaveLength(2);
  });

  it("tells a refused account apart from the other refusals", () => {
    const refused = (message: string) => transferErrorOf(500, ["error", 10001, message]);
    expect(refused("account: not-allowed")).toEqual({ kind: "account", reason: "not-allowed" });
    expect(refused("account: invalid")).toEqual({ kind: "account", reason: "invalid" });
    expect(refused("to: must differ from the source wallet")).toEqual({ kind: "refused", refusal: "sameWallet" });
    expect(refused("something else")).toEqual({ kind: "server" });
  });
});

describe("accountTotals", () => {
  const toUnit = (rates: Record<string, number>) => (currency: string, amount: number) =>
    amount === 0 ? 0 : rates[currency] === undefined ? Number.NaN : amount * (rates[currency] ?? 0);
  const wallets = [wallet("exchange", "USD", 100), wallet("exchange", "BTC", 2)];

  it("converts the exchange's own figures (USD) when it sent them", () => {
    const t = accountTotals({ wallets, positions: [], balance: { aum: 1000, aumNet: 900 } }, toUnit({ USD: 0.5 }));
    expect(t).toEqual({ aum: 500, aumNet: 450 });
  });

  it("sums the wallets and the positions' P/L until then, unknown when a rate is missing", () => {
    const pos = { pair: "tBTCEUR", pl: -10 } as Position;
    const t = accountTotals({ wallets, positions: [pos], balance: null }, toUnit({ USD: 1, BTC: 100, EUR: 2 }));
    expect(t).toEqual({ aum: 300, aumNet: 280 });
    expect(accountTotals({ wallets, positions: [], balance: null }, toUnit({ USD: 1 })).aum).toBeNaN();
    expect(positionQuote("tBTCF0:USTF0")).toBe("USTF0");
  });
});
