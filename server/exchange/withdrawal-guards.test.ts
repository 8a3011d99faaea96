/**
 * What keeps money from leaving when it must not, over real HTTP and SQLite
 * (docs/product-rules.md#withdrawals, #conversions):
 * - collateral backing a losing margin position stays: a withdrawal, a transfer out of margin and
 *   a conversion in margin may take only what the positions leave free (balance less reserved less
 *   the unrealized loss), and margin info follows a margin withdrawal and its refund;
 * - a freeze cancels and refunds the account's withdrawals that have not left yet, and nothing of
 *   a frozen account moves on with the clock;
 * - with the mailed check off, the owner is still mailed when a withdrawal is requested;
 * - a texted code proves only the withdrawal it was sent for, which its text names.
 */
import { describe, expect, it } from "vitest";
import {
  conversionQuoteCodec,
  notificationCodec,
  WITHDRAW_REFUSALS as R,
  withdrawalCodec,
} from "../../src/protocol/index.ts";
import { DEFAULT_LIMITS } from "../rate-limit.ts";
import { fromUnits, toUnits } from "../store/db.ts";
import { newTotpSecret, totp } from "../store/totp.ts";
import { mailsTo } from "../test-support/api.ts";
import { p5, testApi } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

let clock = Date.now();
const SYM = "tETHBTC";
const venue = openVenue({
  dbPath: ":memory:",
  seed: 77,
  now: () => clock,
  markets: [
    { symbol: "tBTCUSD", start: 40_000 },
    { symbol: "tBTCEUR", start: 37_000 },
    { symbol: "tETHUSD", start: 2_000 },
    { symbol: SYM, start: 0.037 },
  ],
});
const withdrawals = venue.funds.withdrawals;
withdrawals.stepMs = 1000;
const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  now: () => clock,
  limits: { ...DEFAULT_LIMITS, login: 1000, auth: 100_000, public: 100_000 },
});
const { post } = api;
const db = venue.accounts.db;

const SEGWIT = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const SELF_HOSTED = { beneficiary: { type: "self" }, destination: { type: "self_hosted", attested: true } };
const refusal = (msg: string): [number, unknown] => [500, ["error", 10001, msg]];

interface Account {
  readonly id: number;
  readonly email: string;
  readonly token: string;
  readonly secret: string;
}

let n = 0;
/** A level-2 account with an authenticator, a session token and `amount` of `currency` in its margin wallet. */
function account(amount: number, currency = "BTC"): Account {
  n += 1;
  const email = `guard${n}@example.com`;
  const id = venue.accounts.createUser(email, `guard${n}`, "long-enough-pw", clock, true);
  const secret = newTotpSecret();
  db.prepare("UPDATE users SET verification_level = 2, tfa_secret = ? WHERE id = ?").run(secret, id);
  venue.balances.funds((move) => move(id, "margin", currency, toUnits(amount), "Deposit"));
  return { id, email, secret, token: venue.accounts.issueToken(id, clock, 7 * 86_400_000) };
}

/** A fresh authenticator code (the clock moves to a new 30-second step: a code is good once). */
function code(a: Account): string {
  clock += 30_000;
  return totp(a.secret, clock);
}

const wallet = (id: number, currency = "BTC") => venue.balances.wallet(id, "margin", currency);
/** Balance less reserved: all that was ever checked before the unrealized loss counted. */
const available = (id: number, currency = "BTC"): number =>
  wallet(id, currency).balance - wallet(id, currency).reserved;

/** A long of `amount` on `symbol` in the margin wallet, filled inside the spread against provided liquidity. */
function goLong(a: Account, amount: number, symbol = SYM): number {
  const engine = venue.exchange.markets.get(symbol)?.engine;
  const price = p5(((engine?.bestBid() as number) + (engine?.bestAsk() as number)) / 2);
  venue.exchange.place(symbol, -901, "sell", "LIMIT", price, amount);
  const r = venue.orders.place(a.id, { type: "LIMIT", symbol, amount, price });
  expect(r.ok, JSON.stringify(r)).toBe(true);
  expect(venue.positions.get(a.id, symbol)?.amount).toBe(toUnits(amount));
  return price;
}

/** The market's last trade is at `price` (a print: the book stays as it was). */
function lastTradeAt(price: number, symbol = SYM): void {
  clock += 5_000;
  venue.exchange.printTrade(symbol, -902, price, -0.01);
  expect(venue.exchange.markets.get(symbol)?.lastPrice()).toBe(price);
}

/** The unrealized loss of the account's position, units. */
function loss(a: Account, entry: number, now: number, symbol = SYM): number {
  const pos = venue.positions.get(a.id, symbol);
  return Math.ceil(fromUnits(pos?.amount ?? 0) * (entry - now) * 1e8);
}

const withdraw = (a: Account, amount: number, extra: Record<string, unknown> = {}) =>
  post(
    "/v2/auth/w/withdraw",
    {
      wallet: "margin",
      method: "bitcoin",
      address: SEGWIT,
      travel_rule: SELF_HOSTED,
      amount: fromUnits(amount).toFixed(8),
      code: code(a),
      ...extra,
    },
    a.token,
  );

function idOf(reply: [number, unknown]): number {
  expect(reply[0], JSON.stringify(reply[1])).toBe(200);
  const note = notificationCodec.decode(reply[1]);
  const w = note.ok ? withdrawalCodec.decode(note.value.data) : null;
  if (!w?.ok) throw new Error(`not a withdrawal: ${JSON.stringify(reply[1])}`);
  return w.value.id;
}

const status = (id: number): string =>
  (db.prepare("SELECT status FROM movements WHERE id = ?").get(id) as { status: string }).status;

/** Moves the clock on and lets the withdrawals' timer run once. */
function later(ms: number): void {
  clock += ms;
  withdrawals.tick();
}

describe("a losing margin position's collateral", () => {
  it("cannot be withdrawn, transferred out or converted; what is free can, and margin info follows", async () => {
    const a = account(1);
    const entry = goLong(a, 100);
    const drop = p5(entry * 0.95);
    lastTradeAt(drop);
    const lost = loss(a, entry, drop);
    expect(lost).toBeGreaterThan(toUnits(0.1));
    const free = available(a.id) - lost;

    // Balance less reserved is more than the position leaves free: each way out refuses it.
    const before = wallet(a.id).balance;
    expect(await withdraw(a, available(a.id))).toEqual(refusal(R.insufficient));
    expect(await withdraw(a, free + 1)).toEqual(refusal(R.insufficient));
    const moved = await post(
      "/v2/auth/w/transfer",
      { from: "margin", to: "exchange", currency: "BTC", amount: fromUnits(free + 1).toFixed(8) },
      a.token,
    );
    expect(moved[0]).toBe(500);
    expect(JSON.stringify(moved[1])).toContain("insufficient");
    expect(wallet(a.id).balance).toBe(before);

    // The withdrawal page offers only what is free.
    const [, info] = await post("/v2/auth/r/int/movements/withdraw/info", { method: "bitcoin" }, a.token);
    expect(JSON.stringify(info)).toContain(String(fromUnits(free)));

    // What is free goes, and margin info follows the debit and the refund.
    const miu: unknown[] = [];
    const stop = venue.balances.events.onEvent((u, t, p) => {
      if (u === a.id && t === "miu") miu.push(p);
    });
    const half = Math.floor(free / 2);
    const id = idOf(await withdraw(a, half));
    expect(wallet(a.id).balance).toBe(before - half);
    expect(miu.length).toBeGreaterThan(0);
    miu.length = 0;
    expect((await post("/v2/auth/w/int/movements/cancel", { id }, a.token))[0]).toBe(200);
    expect(wallet(a.id).balance).toBe(before);
    expect(miu.length).toBeGreaterThan(0);
    stop();
    expect(venue.positions.spendable(a.id, "margin", "BTC")).toBe(free);
    expect(venue.positions.spendable(a.id, "exchange", "BTC")).toBe(0);
  });

  it("cannot be converted: refused at the quote, and at the conversion once the price has fallen further", async () => {
    // The position is on ETH, so the USD → EUR rate (through the BTC markets) is left as it was.
    const a = account(10_000, "USD");
    const entry = goLong(a, 20, "tETHUSD");
    const fallen = p5(entry * 0.95);
    lastTradeAt(fallen, "tETHUSD");
    const free = available(a.id, "USD") - loss(a, entry, fallen, "tETHUSD");
    expect(free).toBeLessThan(available(a.id, "USD") - toUnits(1000));
    const quote = (units: number) =>
      post(
        "/v2/auth/w/int/convert/quote",
        { from: "USD", to: "EUR", wallet: "margin", amount: fromUnits(units).toFixed(2) },
        a.token,
      );
    const refused = await quote(available(a.id, "USD") - 100);
    expect(refused[0]).not.toBe(200);
    expect(JSON.stringify(refused[1])).toContain("insufficient");
    const r = await quote(free - toUnits(100));
    expect(r[0], JSON.stringify(r[1])).toBe(200);
    const id = conversionQuoteCodec.decode(r[1])?.id;
    expect(id).toBeDefined();
    // A 10 % fall: the loss now takes part of what was quoted.
    lastTradeAt(p5(entry * 0.9), "tETHUSD");
    const before = wallet(a.id, "USD").balance;
    const done = await post("/v2/auth/w/int/convert", { quote: id }, a.token);
    expect(done[0]).not.toBe(200);
    expect(JSON.stringify(done[1])).toContain("insufficient");
    expect(wallet(a.id, "USD").balance).toBe(before);
    expect(wallet(a.id, "EUR").balance).toBe(0);
  });
});

describe("a freeze", () => {
  it("cancels and refunds the withdrawals that have not left, and stops the clock for the rest", async () => {
    const a = account(1);
    const start = wallet(a.id).balance;
    const check = (on: boolean) =>
      db
        .prepare(
          "INSERT INTO security_settings (user_id, name, value) VALUES (?, 'no_enforce_withdrawal_check', ?) ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value",
        )
        .run(a.id, on ? "0" : "1");
    // Mailed check off: PENDING at once, yet the owner is told, with the amount and the address.
    check(false);
    const gone = idOf(await withdraw(a, toUnits(0.1)));
    expect(status(gone)).toBe("PENDING");
    const told = (await mailsTo(api.base, a.email)).filter((m) => m.subject === "Withdrawal requested");
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toContain("0.1 BTC");
    expect(told[0]?.body).toContain(SEGWIT);
    expect(told[0]?.body).toMatch(/\/freeze\?code=/);
    later(1000);
    expect(status(gone)).toBe("PROCESSING");
    const pending = idOf(await withdraw(a, toUnits(0.2)));
    check(true);
    const unconfirmed = idOf(await withdraw(a, toUnits(0.3)));
    expect([status(pending), status(unconfirmed)]).toEqual(["PENDING", "UNCONFIRMED"]);
    expect(wallet(a.id).balance).toBe(start - toUnits(0.6));

    expect(await post("/v2/auth/w/int/account/freeze", {}, a.token)).toEqual([200, { frozen: true }]);
    expect([status(pending), status(unconfirmed)]).toEqual(["CANCELED", "CANCELED"]);
    expect(wallet(a.id).balance).toBe(start - toUnits(0.1));
    const refunds = db
      .prepare(
        "SELECT description, amount FROM ledgers WHERE user_id = ? AND description LIKE 'Canceled withdrawal #%' ORDER BY id",
      )
      .all(a.id);
    expect(refunds).toEqual([
      { description: `Canceled withdrawal #${pending}`, amount: toUnits(0.2) },
      { description: `Canceled withdrawal #${unconfirmed}`, amount: toUnits(0.3) },
    ]);
    // What was already being sent stands still while the account is frozen, however long.
    later(3_600_000);
    expect(status(gone)).toBe("PROCESSING");
    expect([status(pending), status(unconfirmed)]).toEqual(["CANCELED", "CANCELED"]);
    // Support lifts the freeze: it carries on.
    venue.accounts.unfreeze(a.id);
    later(1000);
    expect(status(gone)).toBe("COMPLETED");
    expect(wallet(a.id).balance).toBe(start - toUnits(0.1));
  });
});

describe("a texted code", () => {
  it("names the withdrawal it was sent for and confirms only that one", async () => {
    const a = account(1);
    db.prepare("UPDATE users SET tfa_secret = NULL WHERE id = ?").run(a.id);
    db.prepare(
      "INSERT INTO sms_factors (user_id, phone, country_code, enabled_at) VALUES (?, '+447700900456', '44', ?)",
    ).run(a.id, clock);
    const mine = { wallet: "margin", method: "bitcoin", address: SEGWIT, amount: "0.01" };
    // Nothing to name, nothing texted.
    expect((await post("/v2/auth/w/int/movements/withdraw/sms", {}, a.token))[0]).not.toBe(200);
    expect((await post("/v2/auth/w/int/movements/withdraw/sms", mine, a.token))[0]).toBe(200);
    const texts = (await (await fetch(`${api.base}/dev/sms?to=%2B447700900456`)).json()) as { body: string }[];
    expect(texts).toHaveLength(1);
    expect(texts[0]?.body).toContain(`to send 0.01 BTC to ${SEGWIT}`);
    const texted = /\b(\d{6})\b/.exec(texts[0]?.body ?? "")?.[1] ?? "";
    const send = (body: Record<string, unknown>) =>
      post("/v2/auth/w/withdraw", { travel_rule: SELF_HOSTED, ...mine, ...body, code: texted }, a.token);
    const before = wallet(a.id).balance;
    // The same code for more, or for another address, is wrong and moves nothing.
    expect(await send({ amount: "0.9" })).toEqual(refusal(R.secondFactorWrong));
    expect(await send({ address: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa" })).toEqual(refusal(R.secondFactorWrong));
    expect(wallet(a.id).balance).toBe(before);
    // For the withdrawal it names, it works (the amount written another way is the same withdrawal).
    idOf(await send({ amount: "0.010" }));
    expect(wallet(a.id).balance).toBe(before - toUnits(0.01));
  });
});
