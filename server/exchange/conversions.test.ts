/**
 * Currency conversions and agreements over HTTP and SQLite (docs/product-rules.md#conversions):
 * a quote prices a conversion at the exchange's guarded settlement rate and moves nothing; converting it
 * moves exactly the quoted amounts once, with a ledger row on each currency and the fee recorded,
 * and tells the account's socket; a stale, reused, foreign or unaffordable quote and every bad
 * input are refused with nothing moved; the agreement gate holds until accepted; and the ledger
 * still reconciles after a seeded run of conversions.
 */
import { describe, expect, it } from "vitest";
import {
  CONVERSION_QUOTE_MS,
  CURRENCY_AGREEMENTS,
  conversionCodec,
  conversionQuoteCodec,
  LEDGER_CATEGORY,
  ledgerCodec,
  ledgerReconciliationCodec,
  notificationCodec,
  seededRandom,
  walletCodec,
  type ConversionQuote,
} from "../../src/protocol/index.ts";
import { toUnits } from "../store/db.ts";
import { demoSession, signedPost, until } from "../test-support/session.ts";
import { settlementRate } from "./derived.ts";
import { openVenue } from "./venue.ts";

// The venue's clock runs `skew` ms ahead of the wall clock: a test moves it past a quote's expiry.
let skew = 0;
const venue = openVenue({ dbPath: ":memory:", seed: 905, now: () => Date.now() + skew });
for (let i = 0; i < 30; i++) venue.exchange.simulator.step();
const OTHER = { username: "other_converter", password: "Other-pass-2024!" };
const otherId = venue.accounts.createUser("other@example.test", OTHER.username, OTHER.password, Date.now(), true);
venue.funds.deposit(otherId, "USD", 1000, "Test deposit");
// The seeded run makes more calls a minute than one person's pages are allowed.
const limits = { public: 1000, auth: 1000, login: 20 };
const s = demoSession({ exchange: venue.exchange, account: venue.gateway, limits });
const other = demoSession({ exchange: venue.exchange, account: venue.gateway, login: OTHER, limits });

const UST_VERSION = CURRENCY_AGREEMENTS["UST"]?.version ?? "";

async function balance(type: string, currency: string, session = s): Promise<number> {
  const r = await session.rest("/v2/auth/r/wallets");
  const list = walletCodec.decodeList(r.body);
  if (!list.ok) throw new Error(JSON.stringify(list.error));
  return list.value.find((w) => w.type === type && w.currency === currency)?.balance ?? 0;
}

async function quote(body: Record<string, unknown>, session = s): Promise<ConversionQuote> {
  const r = await session.rest("/v2/auth/w/int/convert/quote", body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const q = conversionQuoteCodec.decode(r.body);
  if (q === null) throw new Error(`not a quote: ${JSON.stringify(r.body)}`);
  return q;
}

/** Every fee the exchange kept, per currency, in units (the conversions it made). */
function feesKept(userId: number): Map<string, number> {
  const rows = venue.db
    .prepare(
      "SELECT to_currency AS c, SUM(fee) AS fee FROM conversions WHERE user_id = ? AND converted IS NOT NULL GROUP BY to_currency",
    )
    .all(userId) as { c: string; fee: number }[];
  return new Map(rows.map((r) => [r.c, r.fee]));
}

const demoId = (venue.db.prepare("SELECT id FROM users WHERE username = 'demo'").get() as { id: number }).id;

describe("currency agreements", () => {
  it("refuses a conversion into USDt until its terms are accepted, at the current version only", async () => {
    const gated = await s.rest("/v2/auth/w/int/convert/quote", {
      from: "USD",
      to: "UST",
      wallet: "exchange",
      amount: "10",
    });
    expect(gated.body).toEqual(["error", 10001, "agreement: UST required"]);
    expect((await s.rest("/v2/auth/r/int/currency/agreements")).body).toEqual([]);

    const refusals: [Record<string, unknown>, string][] = [
      [{ currency: "UST", version: "0.9" }, "version: not the current version"],
      [{ currency: "UST" }, "version: not the current version"],
      [{ currency: "USD", version: UST_VERSION }, "currency: no agreement for this currency"],
      [{ currency: "__proto__", version: UST_VERSION }, "currency: no agreement for this currency"],
    ];
    for (const [body, msg] of refusals) {
      const r = await s.rest("/v2/auth/w/int/currency/agreement", body);
      expect(r, JSON.stringify(body)).toEqual({ status: 400, body: ["error", 10001, msg] });
    }
    expect((await s.rest("/v2/auth/r/int/currency/agreements")).body).toEqual([]);

    const accepted = await s.rest("/v2/auth/w/int/currency/agreement", { currency: "UST", version: UST_VERSION });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ currency: "UST", version: UST_VERSION });
    // Accepting again keeps the first moment.
    const again = await s.rest("/v2/auth/w/int/currency/agreement", { currency: "UST", version: UST_VERSION });
    expect(again.body).toEqual(accepted.body);
    expect((await s.rest("/v2/auth/r/int/currency/agreements")).body).toEqual([accepted.body]);
    // Another account's acceptance is its own.
    expect((await other.rest("/v2/auth/r/int/currency/agreements")).body).toEqual([]);
    // The lira needs its own: out of TRY is refused, naming it.
    const lira = await s.rest("/v2/auth/w/int/convert/quote", {
      from: "TRY",
      to: "UST",
      wallet: "exchange",
      amount: "100",
    });
    expect(lira.body).toEqual(["error", 10001, "agreement: TRY required"]);
  });
});

describe("quote, then convert", () => {
  it("quotes at the exchange's rate without moving anything, then moves the quoted amounts once", async () => {
    const usd0 = await balance("exchange", "USD");
    const ust0 = await balance("exchange", "UST");
    const fees0 = feesKept(demoId).get("UST") ?? 0;
    const { ws, frames } = await s.socket();
    const q = await quote({ from: "USD", to: "UST", wallet: "exchange", amount: "100" });
    expect(q).toMatchObject({
      from: "USD",
      to: "UST",
      wallet: "exchange",
      amount: 100,
      rate: 1,
      fee: 0.1,
      receive: 99.9,
    });
    expect(q.expires - q.mts).toBe(CONVERSION_QUOTE_MS);
    expect(await balance("exchange", "USD")).toBe(usd0);

    const r = await s.rest("/v2/auth/w/int/convert", { quote: q.id });
    expect(r.status).toBe(200);
    const n = notificationCodec.decode(r.body);
    if (!n.ok) throw new Error("not a notification");
    expect(n.value).toMatchObject({ type: "acc_cv", status: "SUCCESS" });
    expect((r.body as unknown[])[7]).toBe("100 USD converted to 99.9 UST");
    expect(conversionCodec.decode(n.value.data)).toMatchObject({ id: q.id, amount: 100, receive: 99.9, fee: 0.1 });
    expect(await balance("exchange", "USD")).toBeCloseTo(usd0 - 100, 8);
    expect(await balance("exchange", "UST")).toBeCloseTo(ust0 + 99.9, 8);
    expect(feesKept(demoId).get("UST")).toBe(fees0 + toUnits(0.1));

    // One ledger row on each currency, category 905, naming the conversion and its rate.
    const ledgers = await s.rest("/v2/auth/r/ledgers/hist", { category: LEDGER_CATEGORY.CONVERSION, limit: 2 });
    const rows = ledgerCodec.decodeList(ledgers.body);
    if (!rows.ok) throw new Error("not ledger rows");
    expect(rows.value.map((l) => [l.currency, l.wallet, l.amount]).sort()).toEqual([
      ["USD", "exchange", -100],
      ["UST", "exchange", 99.9],
    ]);
    for (const l of rows.value)
      expect(l.description).toBe(`Currency conversion of 100 USD to 99.9 UST at 1 (fee 0.1 UST) #${q.id.slice(0, 8)}`);

    // The socket heard the notification and both wallets, after COMMIT.
    await until(() => frames.some((f) => f[1] === "n"), "the conversion's notification");
    expect(frames.find((f) => f[1] === "n")?.[2]).toEqual(r.body);
    await until(() => frames.filter((f) => f[1] === "wu").length >= 2, "both wallet updates");
    const updated = frames.filter((f) => f[1] === "wu").map((f) => (f[2] as unknown[])[1]);
    expect(updated).toEqual(expect.arrayContaining(["USD", "UST"]));
    ws.close();
  });

  it("prices a fiat conversion at the markets' guarded mids, the gross rounded down and the fee up", async () => {
    // The settlement rate, not calc/fx's last prices (settlement-rate.test.ts shows why).
    const rate = settlementRate(venue.exchange, "EUR", "UST") ?? Number.NaN;
    const q = await quote({ from: "EUR", to: "UST", wallet: "exchange", amount: "1234.56789" });
    expect(q.rate).toBe(Math.round(rate * 1e10) / 1e10);
    // Exactly: the gross rounded down to the unit, the 0.1 % fee rounded up.
    const gross = (BigInt(toUnits(1234.56789)) * BigInt(Math.round(q.rate * 1e10))) / 10_000_000_000n;
    const fee = (gross + 999n) / 1000n;
    expect(BigInt(toUnits(q.fee))).toBe(fee);
    expect(BigInt(toUnits(q.receive))).toBe(gross - fee);
  });

  it("writes the smallest amounts as plain decimals, the fee a whole unit", async () => {
    const q = await quote({ from: "USD", to: "UST", wallet: "exchange", amount: "0.0000001" });
    expect(q).toMatchObject({ amount: 1e-7, fee: 1e-8, receive: 9e-8 });
    const r = await s.rest("/v2/auth/w/int/convert", { quote: q.id });
    expect((r.body as unknown[])[7]).toBe("0.0000001 USD converted to 0.00000009 UST");
    const rows = ledgerCodec.decodeList(
      (await s.rest("/v2/auth/r/ledgers/UST/hist", { category: LEDGER_CATEGORY.CONVERSION, limit: 1 })).body,
    );
    expect(rows.ok && rows.value[0]?.description).toBe(
      `Currency conversion of 0.0000001 USD to 0.00000009 UST at 1 (fee 0.00000001 UST) #${q.id.slice(0, 8)}`,
    );
  });

  it("converts USDt to its derivatives form one to one, free, in the margin wallet", async () => {
    await s.rest("/v2/auth/w/transfer", { from: "exchange", to: "margin", currency: "UST", amount: "50" });
    const m0 = await balance("margin", "USTF0");
    const q = await quote({ from: "UST", to: "USTF0", wallet: "margin", amount: "50" });
    expect(q).toMatchObject({ rate: 1, fee: 0, receive: 50 });
    expect((await s.rest("/v2/auth/w/int/convert", { quote: q.id })).status).toBe(200);
    expect(await balance("margin", "USTF0")).toBeCloseTo(m0 + 50, 8);
    expect(await balance("margin", "UST")).toBe(0);
  });

  it("answers a repeat with the first answer and moves the money once", async () => {
    const usd0 = await balance("exchange", "USD");
    const q = await quote({ from: "USD", to: "UST", wallet: "exchange", amount: "10" });
    const all = await Promise.all([1, 2, 3].map(() => s.rest("/v2/auth/w/int/convert", { quote: q.id })));
    for (const r of all) expect(r).toEqual(all[0]);
    expect(all[0]?.status).toBe(200);
    // Even after it would have expired, a repeat is the first answer, not a refusal.
    skew += CONVERSION_QUOTE_MS;
    expect(await s.rest("/v2/auth/w/int/convert", { quote: q.id })).toEqual(all[0]);
    skew -= CONVERSION_QUOTE_MS;
    expect(await balance("exchange", "USD")).toBeCloseTo(usd0 - 10, 8);
  });
});

describe("refusals move nothing", () => {
  async function unchanged(run: () => Promise<void>): Promise<void> {
    const before = JSON.stringify((await s.rest("/v2/auth/r/wallets")).body);
    const ledgerCount = () =>
      (venue.db.prepare("SELECT COUNT(*) AS n FROM ledgers WHERE user_id = ?").get(demoId) as { n: number }).n;
    const rows = ledgerCount();
    await run();
    expect(JSON.stringify((await s.rest("/v2/auth/r/wallets")).body)).toBe(before);
    expect(ledgerCount()).toBe(rows);
  }

  it("refuses an expired quote", async () => {
    await unchanged(async () => {
      const q = await quote({ from: "USD", to: "UST", wallet: "exchange", amount: "20" });
      skew += CONVERSION_QUOTE_MS;
      try {
        const r = await s.rest("/v2/auth/w/int/convert", { quote: q.id });
        expect(r).toEqual({ status: 500, body: ["error", 10001, "quote: expired"] });
      } finally {
        skew -= CONVERSION_QUOTE_MS;
      }
    });
  });

  it("does not find another account's quote, nor an unknown or malformed id", async () => {
    await unchanged(async () => {
      const q = await quote({ from: "USD", to: "UST", wallet: "exchange", amount: "5" });
      expect(await other.rest("/v2/auth/w/int/convert", { quote: q.id })).toEqual({
        status: 500,
        body: ["error", 10001, "quote: not found"],
      });
      expect(await s.rest("/v2/auth/w/int/convert", { quote: "0".repeat(32) })).toEqual({
        status: 500,
        body: ["error", 10001, "quote: not found"],
      });
      for (const bad of ["x", q.id.toUpperCase(), 42, null, `${q.id}0`, { id: q.id }])
        expect(await s.rest("/v2/auth/w/int/convert", { quote: bad }), JSON.stringify(bad)).toEqual({
          status: 400,
          body: ["error", 10001, "quote: invalid"],
        });
    });
    expect(await balance("exchange", "USD", other)).toBe(1000);
  });

  it("refuses more than the wallet has, at the quote and again at the conversion", async () => {
    const usd = await balance("exchange", "USD");
    await unchanged(async () => {
      const r = await s.rest("/v2/auth/w/int/convert/quote", {
        from: "USD",
        to: "UST",
        wallet: "exchange",
        amount: String(usd + 1),
      });
      expect(r.body).toEqual(["error", 10001, "amount: insufficient balance in the wallet"]);
    });
    // Quoted while there, gone by the conversion (moved to the margin wallet meanwhile).
    const q = await quote({ from: "USD", to: "UST", wallet: "exchange", amount: String(usd) });
    await s.rest("/v2/auth/w/transfer", { from: "exchange", to: "margin", currency: "USD", amount: "1" });
    await unchanged(async () => {
      expect((await s.rest("/v2/auth/w/int/convert", { quote: q.id })).body).toEqual([
        "error",
        10001,
        "amount: insufficient balance in the wallet",
      ]);
    });
    await s.rest("/v2/auth/w/transfer", { from: "margin", to: "exchange", currency: "USD", amount: "1" });
  });

  it("refuses every bad input with the field named", async () => {
    const ok = { from: "USD", to: "UST", wallet: "exchange", amount: "10" };
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: "NaN" }, "amount: invalid"],
      [{ amount: "Infinity" }, "amount: invalid"],
      [{ amount: "-5" }, "amount: invalid"],
      [{ amount: -5 }, "amount: invalid"],
      [{ amount: "0" }, "amount: invalid"],
      [{ amount: "1e3" }, "amount: invalid"],
      [{ amount: "0x10" }, "amount: invalid"],
      [{ amount: "" }, "amount: invalid"],
      [{ amount: null }, "amount: invalid"],
      [{ amount: [10] }, "amount: invalid"],
      [{ amount: "0.123456789" }, "amount: precision (more decimals than the currency has)"],
      [{ amount: 1e-9 }, "amount: precision (more decimals than the currency has)"],
      [{ amount: "50000001" }, "amount: above the conversion limit"],
      [{ from: "XYZ" }, "from: invalid"],
      [{ from: "BTC" }, "from: invalid"],
      [{ from: undefined }, "from: invalid"],
      [{ to: "NOPE" }, "to: invalid"],
      [{ to: "TESTUSD" }, "to: invalid"],
      [{ to: "USD" }, "to: must differ from the source currency"],
      [{ to: "USTF0" }, "to: not convertible from this currency"],
      [{ wallet: "savings" }, "wallet: invalid"],
      [{ wallet: "constructor" }, "wallet: invalid"],
      [{ from: "JPY", to: "USD", amount: "0.00000001" }, "amount: too small to convert"],
    ];
    await unchanged(async () => {
      for (const [patch, msg] of cases) {
        const r = await s.rest("/v2/auth/w/int/convert/quote", { ...ok, ...patch });
        expect(r, JSON.stringify(patch)).toEqual({ status: 400, body: ["error", 10001, msg] });
      }
    });
    // None of them left a quote behind.
    const quotes = venue.db.prepare("SELECT COUNT(*) AS n FROM conversions WHERE amount = ?").get(toUnits(10)) as {
      n: number;
    };
    expect(quotes.n).toBe(1);
  });
});

describe("API keys", () => {
  it("convert with the wallets write permission only; a read-only key is refused before anything runs", async () => {
    const now = Date.now();
    const readOnly = venue.accounts.createApiKey(demoId, "read", ["a", "w:r"], now, {
      key: "cv-ro",
      secret: "cv-ro-s",
    });
    const wallets = venue.accounts.createApiKey(demoId, "wallets", ["w"], now, { key: "cv-w", secret: "cv-w-s" });
    const body = { from: "USD", to: "UST", wallet: "exchange", amount: "1" };
    expect(await signedPost(s.host, readOnly, "/v2/auth/w/int/convert/quote", body)).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
    const [status, q] = await signedPost(s.host, wallets, "/v2/auth/w/int/convert/quote", body);
    expect(status).toBe(200);
    const id = conversionQuoteCodec.decode(q)?.id;
    expect((await signedPost(s.host, readOnly, "/v2/auth/w/int/convert", { quote: id }))[0]).toBe(500);
    expect((await signedPost(s.host, wallets, "/v2/auth/w/int/convert", { quote: id }))[0]).toBe(200);
  });
});

describe("the ledger after a seeded run of conversions", () => {
  it("still reconciles, and the fees kept are what the quotes gave up", async () => {
    await s.rest("/v2/auth/w/int/currency/agreement", {
      currency: "BRL",
      version: CURRENCY_AGREEMENTS["BRL"]?.version,
    });
    const rnd = seededRandom(2026);
    const pairs = [
      ["USD", "UST"],
      ["UST", "EUR"],
      ["EUR", "JPY"],
      ["JPY", "BRL"],
      ["BRL", "USD"],
      ["UST", "USD"],
    ] as const;
    let expectedFees = 0;
    const feesBefore = [...feesKept(demoId).values()].reduce((a, b) => a + b, 0);
    for (let i = 0; i < 24; i++) {
      const [from, to] = pairs[i % pairs.length] ?? ["USD", "UST"];
      const available = await balance("exchange", from);
      const amount = (Math.floor(available * (0.05 + rnd() * 0.2) * 1e4) / 1e4).toFixed(4);
      const q = await quote({ from, to, wallet: "exchange", amount });
      // The fee is the part of the rate's gross not paid out, computed exactly by the exchange.
      const gross = (BigInt(toUnits(Number(amount))) * BigInt(Math.round(q.rate * 1e10))) / 10_000_000_000n;
      expect(BigInt(toUnits(q.fee) + toUnits(q.receive))).toBe(gross);
      expectedFees += toUnits(q.fee);
      const from0 = await balance("exchange", from);
      const to0 = await balance("exchange", to);
      expect((await s.rest("/v2/auth/w/int/convert", { quote: q.id })).status).toBe(200);
      expect(toUnits(await balance("exchange", from))).toBe(toUnits(from0) - toUnits(q.amount));
      expect(toUnits(await balance("exchange", to))).toBe(toUnits(to0) + toUnits(q.receive));
    }
    const feesAfter = [...feesKept(demoId).values()].reduce((a, b) => a + b, 0);
    expect(feesAfter - feesBefore).toBe(expectedFees);
    const r = await s.rest("/v2/auth/r/ledgers/reconcile");
    const rec = ledgerReconciliationCodec.decodeList(r.body);
    if (!rec.ok) throw new Error("not a reconciliation");
    expect(rec.value.length).toBeGreaterThan(0);
    for (const w of rec.value) expect(w, `${w.currency}/${w.wallet}`).toMatchObject({ chained: true, breakId: null });
  });
});
