/**
 * Withdrawals over real HTTP, the account socket and SQLite (docs/product-rules.md#withdrawals):
 * request → UNCONFIRMED with a mailed link → confirmed PENDING → PROCESSING → COMPLETED on the
 * exchange's clock, with the wallet and ledger at each step; cancel and its one refund; the
 * mailed-confirmation setting; the second factor (authenticator, SMS, none, an API key); the daily
 * limit by level; the travel rule; the whitelist; request ids; two withdrawals at once; a restart;
 * and bad input that moves nothing.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ledgerReconciliationCodec,
  movementRowCodec,
  notificationCodec,
  TRAVEL_RULE_THRESHOLD_USD,
  WITHDRAW_REFUSALS as R,
  withdrawalCodec,
  withdrawInfoCodec,
  travelRuleInfoCodec,
  VASPS,
  type MovementRow,
} from "../../src/protocol/index.ts";
import { DEFAULT_LIMITS } from "../rate-limit.ts";
import { openDb } from "../store/db.ts";
import { newTotpSecret, totp } from "../store/totp.ts";
import { mailsTo } from "../test-support/api.ts";
import { startExchangeProcess } from "../test-support/exchange-process.ts";
import { signedPost, testApi, until } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

let clock = Date.now();
const venue = openVenue({
  dbPath: ":memory:",
  seed: 31,
  now: () => clock,
  markets: [
    { symbol: "tBTCUSD", start: 40_000 },
    { symbol: "tXRPUSD", start: 2 },
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
const LEGACY = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa";
const XRP = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
const PASSWORD = "long-enough-pw";
const WEEK = 7 * 24 * 3_600_000;

interface Account {
  readonly id: number;
  readonly email: string;
  readonly token: string;
  readonly secret: string;
  readonly key: { key: string; secret: string };
}

let n = 0;
/** A new account at `level` with `btc` BTC and 1000 XRP in its exchange wallet, an authenticator, a session token and a withdraw key. */
function account(o: { level?: number; btc?: number; totp?: boolean } = {}): Account {
  n += 1;
  const email = `wd${n}@example.com`;
  const id = venue.accounts.createUser(email, `wd${n}`, PASSWORD, clock, true);
  db.prepare("UPDATE users SET verification_level = ? WHERE id = ?").run(o.level ?? 2, id);
  const secret = newTotpSecret();
  if (o.totp ?? true) db.prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(secret, id);
  venue.funds.deposit(id, "BTC", o.btc ?? 2, "Deposit");
  venue.funds.deposit(id, "XRP", 1000, "Deposit");
  const key = venue.accounts.createApiKey(id, "withdrawals", ["w", "wd"], clock);
  return { id, email, token: venue.accounts.issueToken(id, clock, WEEK), secret, key };
}

/** The account's next authenticator code: the clock moves to a new 30-second step first (a code is good once). */
function code(a: Account): string {
  clock += 30_000;
  return totp(a.secret, clock);
}

const SELF_HOSTED = { beneficiary: { type: "self" }, destination: { type: "self_hosted", attested: true } };
/** A BTC withdrawal's fields; the travel-rule details go with every one unless a test leaves them out. */
const BTC = { wallet: "exchange", method: "bitcoin", address: SEGWIT, travel_rule: SELF_HOSTED };
const units = (id: number, ccy = "BTC"): number => venue.balances.wallet(id, "exchange", ccy).balance;
const ledgerRows = (id: number): number =>
  (db.prepare("SELECT COUNT(*) AS n FROM ledgers WHERE user_id = ?").get(id) as { n: number }).n;
const movementCount = (id: number): number =>
  (db.prepare("SELECT COUNT(*) AS n FROM movements WHERE user_id = ? AND amount < 0").get(id) as { n: number }).n;

async function request(a: Account, body: Record<string, unknown>): Promise<[number, unknown]> {
  return post("/v2/auth/w/withdraw", { ...BTC, ...body }, a.token);
}
const viaKey = (a: Account, body: Record<string, unknown>) =>
  signedPost(api.host, a.key, "/v2/auth/w/withdraw", { ...BTC, ...body });

/** The withdrawal id of an accepted request's `acc_wd-req` notification. */
function idOf(reply: [number, unknown]): number {
  expect(reply[0], JSON.stringify(reply[1])).toBe(200);
  const note = notificationCodec.decode(reply[1]);
  const w = note.ok ? withdrawalCodec.decode(note.value.data) : null;
  if (!w?.ok) throw new Error(`not a withdrawal: ${JSON.stringify(reply[1])}`);
  return w.value.id;
}

async function movement(a: Account, id: number): Promise<MovementRow> {
  const [, body] = await post("/v2/auth/r/movements/BTC/hist", {}, a.token);
  const rows = movementRowCodec.decodeList(body);
  if (!rows.ok) throw new Error("movements do not decode");
  const row = rows.value.find((r) => r.id === id);
  if (!row) throw new Error(`no movement ${id}`);
  return row;
}

async function reconciled(a: Account): Promise<boolean> {
  const [, body] = await post("/v2/auth/r/ledgers/reconcile", {}, a.token);
  const r = ledgerReconciliationCodec.decodeList(body);
  return r.ok && r.value.length > 0 && r.value.every((w) => w.chained);
}

/** The token of the newest withdrawal confirmation link mailed to `email`. */
async function link(email: string): Promise<string> {
  const mail = (await mailsTo(api.base, email)).find((m) => m.subject === "Confirm your withdrawal");
  return /\/withdraw\?confirm=([0-9a-f]{64})/.exec(mail?.body ?? "")?.[1] ?? "";
}

/** Moves the clock on and lets the withdrawals' timer run once. */
function later(ms: number): void {
  clock += ms;
  withdrawals.tick();
}

const refusal = (msg: string, status = 500): [number, unknown] => [status, ["error", 10001, msg]];

async function rate(a: Account, method = "bitcoin"): Promise<number> {
  const [, body] = await post("/v2/auth/r/int/movements/withdraw/info", { method }, a.token);
  const info = withdrawInfoCodec.decode(body);
  if (!info?.usdRate) throw new Error(`no rate: ${JSON.stringify(body)}`);
  return info.usdRate;
}

/** An amount of BTC worth `usd` at the exchange's rate now, rounded to 8 decimals. */
async function worth(a: Account, usd: number): Promise<string> {
  return (Math.round((usd / (await rate(a))) * 1e8) / 1e8).toFixed(8);
}

describe("the lifecycle", () => {
  it("goes UNCONFIRMED with a mailed link, PENDING on confirmation, then PROCESSING and COMPLETED", async () => {
    const a = account();
    const ws = await openSocket(a.token);
    const before = units(a.id);
    const rows = ledgerRows(a.id);
    const id = idOf(await request(a, { amount: "0.01", note: "rent", code: code(a) }));
    // Debited at once, with its ledger row; the movement waits for the mail.
    expect(units(a.id)).toBe(before - 1_000_000);
    expect(ledgerRows(a.id)).toBe(rows + 1);
    const m = await movement(a, id);
    expect(m).toMatchObject({ status: "UNCONFIRMED", amount: -0.0096, fees: -0.0004, destinationAddress: SEGWIT });
    expect(m.withdrawNote).toBe("rent");
    const token = await link(a.email);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    // Only the hash is stored.
    expect(JSON.stringify(db.prepare("SELECT * FROM movements WHERE id = ?").get(id))).not.toContain(token);
    // Nothing moves on while unconfirmed.
    later(10_000);
    expect((await movement(a, id)).status).toBe("UNCONFIRMED");
    // The page shows what the link confirms, which changes nothing; then it is confirmed, once.
    const check = await post("/v2/auth/r/int/movements/confirm/check", { token }, a.token);
    expect(check).toEqual([200, { id, currency: "BTC", amount: 0.01, address: SEGWIT, status: "UNCONFIRMED" }]);
    expect(await post("/v2/auth/w/int/movements/confirm", { token }, a.token)).toEqual([
      200,
      { id, status: "PENDING" },
    ]);
    expect(await post("/v2/auth/w/int/movements/confirm", { token }, a.token)).toEqual(refusal(R.confirmLink));
    expect((await movement(a, id)).status).toBe("PENDING");
    later(999);
    expect((await movement(a, id)).status).toBe("PENDING");
    later(1);
    expect((await movement(a, id)).status).toBe("PROCESSING");
    later(1000);
    const done = await movement(a, id);
    expect(done.status).toBe("COMPLETED");
    expect(done.txId).toMatch(/^[0-9a-f]{64}$/);
    // The wallet was debited once, when requested; the ledger chains to the balance.
    expect(units(a.id)).toBe(before - 1_000_000);
    expect(ledgerRows(a.id)).toBe(rows + 1);
    expect(await reconciled(a)).toBe(true);
    const mails = await mailsTo(api.base, a.email);
    expect(mails.filter((x) => x.subject === "Withdrawal completed")).toHaveLength(1);
    await until(
      () =>
        ws.frames.some((f) => f[1] === "n" && (f[2] as unknown[])[1] === "wallet_withdrawal_completed") &&
        ws.frames.some((f) => f[1] === "n" && (f[2] as unknown[])[1] === "wallet_withdrawal_processing"),
      "the withdrawal notifications",
    );
    ws.ws.close();
  });

  it("skips the mail with no_enforce_withdrawal_check on, and the completion mail when turned off", async () => {
    const a = account();
    db.prepare(
      "INSERT INTO security_settings (user_id, name, value) VALUES (?, 'no_enforce_withdrawal_check', '1')",
    ).run(a.id);
    db.prepare("UPDATE users SET settings = ? WHERE id = ?").run(
      JSON.stringify({ email_withdrawal_completed: false }),
      a.id,
    );
    const [, info] = await post("/v2/auth/r/int/movements/withdraw/info", { method: "bitcoin" }, a.token);
    expect(withdrawInfoCodec.decode(info)?.mailConfirmation).toBe(false);
    const id = idOf(await request(a, { amount: "0.01", code: code(a) }));
    expect((await movement(a, id)).status).toBe("PENDING");
    // No link to confirm, but the owner is still told it was requested (withdrawal-guards.test.ts).
    const subjects = async () => (await mailsTo(api.base, a.email)).map((m) => m.subject);
    expect(await subjects()).toEqual(["Withdrawal requested"]);
    later(2000);
    expect((await movement(a, id)).status).toBe("COMPLETED");
    expect(await subjects()).toEqual(["Withdrawal requested"]);
  });

  it("cancels while UNCONFIRMED or PENDING with one refund, never once PROCESSING", async () => {
    const a = account();
    const before = units(a.id);
    const first = idOf(await request(a, { amount: "0.1", code: code(a) }));
    expect(await post("/v2/auth/w/int/movements/cancel", { id: first }, a.token)).toEqual([
      200,
      { id: first, status: "CANCELED" },
    ]);
    expect(await post("/v2/auth/w/int/movements/cancel", { id: first }, a.token)).toEqual(refusal(R.cancelTooLate));
    expect(units(a.id)).toBe(before);
    const second = idOf(await request(a, { amount: "0.2", code: code(a) }));
    await post("/v2/auth/w/int/movements/confirm", { token: await link(a.email) }, a.token);
    expect((await post("/v2/auth/w/int/movements/cancel", { id: second }, a.token))[0]).toBe(200);
    expect(units(a.id)).toBe(before);
    // The canceled one cannot be confirmed any more either.
    const third = idOf(await request(a, { amount: "0.3", code: code(a) }));
    await post("/v2/auth/w/int/movements/confirm", { token: await link(a.email) }, a.token);
    later(1000);
    expect((await movement(a, third)).status).toBe("PROCESSING");
    expect(await post("/v2/auth/w/int/movements/cancel", { id: third }, a.token)).toEqual(refusal(R.cancelTooLate));
    expect(units(a.id)).toBe(before - 30_000_000);
    // Each refund one ledger row "Canceled withdrawal #ID", positive, category 105.
    const refunds = db
      .prepare(
        "SELECT amount, category FROM ledgers WHERE user_id = ? AND description LIKE 'Canceled withdrawal #%' ORDER BY id",
      )
      .all(a.id);
    expect(refunds).toEqual([
      { amount: 10_000_000, category: 105 },
      { amount: 20_000_000, category: 105 },
    ]);
    expect(await reconciled(a)).toBe(true);
    // Another account's withdrawal is not found; neither is one that does not exist.
    const b = account();
    expect(await post("/v2/auth/w/int/movements/cancel", { id: third }, b.token)).toEqual(refusal(R.notFound));
    expect(await post("/v2/auth/w/int/movements/cancel", { id: 999_999 }, b.token)).toEqual(refusal(R.notFound));
  });

  it("takes a confirmation link only from the account's own session", async () => {
    const a = account();
    const b = account();
    idOf(await request(a, { amount: "0.01", code: code(a) }));
    const token = await link(a.email);
    expect(await post("/v2/auth/w/int/movements/confirm", { token }, b.token)).toEqual(refusal(R.confirmLink));
    const [status, body] = await signedPost(api.host, a.key, "/v2/auth/w/int/movements/confirm", { token });
    expect([status, body]).toEqual([500, ["error", 10100, R.sessionRequired]]);
    expect(await post("/v2/auth/w/int/movements/confirm", { token: "ab".repeat(32) }, a.token)).toEqual(
      refusal(R.confirmLink),
    );
    expect((await post("/v2/auth/w/int/movements/confirm", { token }, a.token))[0]).toBe(200);
  });
});

describe("the second factor", () => {
  it("is required from a session, refused when wrong, counted, and asked of no API key", async () => {
    const a = account();
    const before = units(a.id);
    expect(await request(a, { amount: "0.01" })).toEqual(refusal(R.secondFactorRequired));
    expect(await request(a, { amount: "0.01", code: "000000" })).toEqual(refusal(R.secondFactorWrong));
    const c = code(a);
    idOf(await request(a, { amount: "0.01", code: c }));
    // The same code is good once.
    expect(await request(a, { amount: "0.01", code: c })).toEqual(refusal(R.secondFactorWrong));
    // An API key with the withdraw permission is its own proof.
    idOf(await viaKey(a, { amount: "0.01" }));
    expect(units(a.id)).toBe(before - 2_000_000);
    // Wrong codes count among the owner's proofs: after five, even a right one is refused for now.
    for (let i = 0; i < 3; i++) await request(a, { amount: "0.01", code: "111111" });
    expect(await request(a, { amount: "0.01", code: code(a) })).toEqual(refusal(R.secondFactorLocked));
    // A key without the withdraw permission may not withdraw.
    const readOnly = venue.accounts.createApiKey(a.id, "wallets", ["w"], clock);
    expect((await signedPost(api.host, readOnly, "/v2/auth/w/withdraw", { ...BTC, amount: "0.01" }))[1]).toEqual([
      "error",
      10100,
      "apikey: permission denied for this call",
    ]);
  });

  it("refuses an account without one, and takes a code texted to an SMS factor", async () => {
    const a = account({ totp: false });
    expect(await request(a, { amount: "0.01", code: "123456" })).toEqual(refusal(R.noSecondFactor));
    db.prepare(
      "INSERT INTO sms_factors (user_id, phone, country_code, enabled_at) VALUES (?, '+447700900123', '44', ?)",
    ).run(a.id, clock);
    const [, info] = await post("/v2/auth/r/int/movements/withdraw/info", { method: "bitcoin" }, a.token);
    expect(withdrawInfoCodec.decode(info)?.secondFactor).toBe("sms");
    expect(await request(a, { amount: "0.01", code: "123456" })).toEqual(refusal(R.secondFactorExpired));
    // The code is asked for the withdrawal it will confirm (withdrawal-guards.test.ts: only that one).
    const texting = { ...BTC, amount: "0.01" };
    const [status] = await post("/v2/auth/w/int/movements/withdraw/sms", texting, a.token);
    expect(status).toBe(200);
    expect(await post("/v2/auth/w/int/movements/withdraw/sms", texting, a.token)).toEqual(refusal(R.smsWait));
    const texts = (await (await fetch(`${api.base}/dev/sms?to=%2B447700900123`)).json()) as { body: string }[];
    const texted = /\b(\d{6})\b/.exec(texts[0]?.body ?? "")?.[1] ?? "";
    expect(texts[0]?.body).toContain(`to send 0.01 BTC to ${SEGWIT}`);
    const wrong = texted === "000000" ? "000001" : "000000";
    expect(await request(a, { amount: "0.01", code: wrong })).toEqual(refusal(R.secondFactorWrong));
    idOf(await request(a, { amount: "0.01", code: texted }));
    expect(await request(a, { amount: "0.01", code: texted })).toEqual(refusal(R.secondFactorExpired));
  });
});

describe("the daily limit", () => {
  it("counts USD requested in a rolling 24 hours by level, canceled ones left out", async () => {
    const a = account({ btc: 40 });
    const travel = { travel_rule: SELF_HOSTED };
    const big = await worth(a, 30_000);
    const first = idOf(await viaKey(a, { amount: big, ...travel }));
    // 30 000 + 30 000 USD is over level 2's 50 000.
    expect(await viaKey(a, { amount: big, ...travel })).toEqual(refusal(R.dailyLimit));
    const [, info] = await post("/v2/auth/r/int/movements/withdraw/info", { method: "bitcoin" }, a.token);
    const decoded = withdrawInfoCodec.decode(info);
    expect(decoded?.dailyLimitUsd).toBe(50_000);
    expect(decoded?.usedUsd).toBeCloseTo(30_000, 0);
    // Canceled, it counts no more.
    expect((await post("/v2/auth/w/int/movements/cancel", { id: first }, a.token))[0]).toBe(200);
    const second = idOf(await viaKey(a, { amount: big, ...travel }));
    expect(await viaKey(a, { amount: big, ...travel })).toEqual(refusal(R.dailyLimit));
    // Level 3 allows a million.
    db.prepare("UPDATE users SET verification_level = 3 WHERE id = ?").run(a.id);
    idOf(await viaKey(a, { amount: big, ...travel }));
    db.prepare("UPDATE users SET verification_level = 2 WHERE id = ?").run(a.id);
    expect(await viaKey(a, { amount: big, ...travel })).toEqual(refusal(R.dailyLimit));
    // A day later the window has moved past them.
    db.prepare("UPDATE movements SET mts_started = mts_started - ? WHERE user_id = ? AND id >= ?").run(
      24 * 3_600_000,
      a.id,
      second,
    );
    idOf(await viaKey(a, { amount: big, ...travel }));
  });

  it("is nothing below level 2: the level refusal, and the info says what is needed", async () => {
    const a = account({ level: 1 });
    const [, info] = await post("/v2/auth/r/int/movements/withdraw/info", { method: "bitcoin" }, a.token);
    expect(withdrawInfoCodec.decode(info)).toMatchObject({ level: { current: 1, needed: 2 }, dailyLimitUsd: 0 });
    expect(await viaKey(a, { amount: "0.01" })).toEqual(
      refusal("verification: level 2 needed to withdraw (this account has 1)"),
    );
  });
});

describe("the travel rule", () => {
  it("is required at the threshold, validated when sent, and the book's entry is offered", async () => {
    const a = account();
    const over = await worth(a, TRAVEL_RULE_THRESHOLD_USD + 10);
    const under = await worth(a, TRAVEL_RULE_THRESHOLD_USD - 10);
    const before = units(a.id);
    expect(await viaKey(a, { amount: over, travel_rule: undefined })).toEqual(refusal(R.travelRuleRequired));
    expect(await viaKey(a, { amount: over, travel_rule: { beneficiary: { type: "self" } } })).toEqual(
      refusal(R.travelRuleInvalid),
    );
    expect(
      await viaKey(a, {
        amount: over,
        travel_rule: { beneficiary: { type: "self" }, destination: { type: "vasp", vasp: "nowhere" } },
      }),
    ).toEqual(refusal(R.travelRuleVasp));
    expect(units(a.id)).toBe(before);
    idOf(await viaKey(a, { amount: under, travel_rule: undefined }));
    const id = idOf(
      await viaKey(a, {
        amount: over,
        travel_rule: {
          beneficiary: { type: "third_party", name: "Ann Example", country: "de" },
          destination: { type: "vasp", vasp: "kraken" },
        },
      }),
    );
    const stored = db.prepare("SELECT travel_rule FROM movements WHERE id = ?").get(id) as { travel_rule: string };
    expect(JSON.parse(stored.travel_rule)).toEqual({
      beneficiary: { type: "third_party", name: "Ann Example", country: "DE" },
      destination: { type: "vasp", vasp: "kraken" },
    });
    // The book's confirmed entry of an address, with its beneficiary; none for another address.
    db.prepare(
      `INSERT INTO address_book (user_id, currency, method, label, address, address_key, beneficiary, beneficiary_name, beneficiary_country, created_at, confirmed_at)
       VALUES (?, 'BTC', 'bitcoin', 'Cold', ?, ?, 'third_party', 'Ann Example', 'DE', ?, ?)`,
    ).run(a.id, SEGWIT, `bitcoin:${SEGWIT}:`, clock, clock);
    const [, found] = await post(
      "/v2/auth/r/int/movements/travel-rule",
      { method: "bitcoin", address: SEGWIT.toUpperCase() },
      a.token,
    );
    expect(travelRuleInfoCodec.decode(found)).toEqual({
      entry: { label: "Cold", beneficiary: { type: "third_party", name: "Ann Example", country: "DE" } },
      vasps: VASPS,
    });
    const [, none] = await post(
      "/v2/auth/r/int/movements/travel-rule",
      { method: "bitcoin", address: LEGACY },
      a.token,
    );
    expect(travelRuleInfoCodec.decode(none)?.entry).toBeNull();
  });
});

describe("the whitelist", () => {
  it("lets withdrawals go only to confirmed entries of the book while on", async () => {
    const a = account();
    db.prepare("INSERT INTO withdrawal_settings (user_id, currency, whitelist) VALUES (?, 'BTC', 1)").run(a.id);
    db.prepare(
      `INSERT INTO address_book (user_id, currency, method, label, address, address_key, beneficiary, created_at, confirmed_at)
       VALUES (?, 'BTC', 'bitcoin', 'Cold', ?, ?, 'self', ?, ?), (?, 'BTC', 'bitcoin', 'New', ?, ?, 'self', ?, NULL)`,
    ).run(a.id, SEGWIT, `bitcoin:${SEGWIT}:`, clock, clock, a.id, LEGACY, `bitcoin:${LEGACY}:`, clock);
    const before = units(a.id);
    expect(await viaKey(a, { amount: "0.01", address: LEGACY })).toEqual(refusal(R.whitelist));
    expect(units(a.id)).toBe(before);
    idOf(await viaKey(a, { amount: "0.01", address: SEGWIT }));
    db.prepare("UPDATE withdrawal_settings SET disabled = 1 WHERE user_id = ?").run(a.id);
    expect(await viaKey(a, { amount: "0.01", address: SEGWIT })).toEqual(refusal(R.withdrawalsOff));
  });
});

describe("request ids and concurrency", () => {
  it("moves once per request id; the id reused for another withdrawal is refused", async () => {
    const a = account();
    const before = units(a.id);
    const first = await request(a, { amount: "0.05", request_id: "wd-request-1", code: code(a) });
    const id = idOf(first);
    // The repeat answers the first reply; no code is spent, nothing moves.
    expect(await request(a, { amount: "0.05", request_id: "wd-request-1", code: "000000" })).toEqual(first);
    expect(await request(a, { amount: "0.06", request_id: "wd-request-1", code: code(a) })).toEqual(
      refusal(R.requestReused),
    );
    expect(units(a.id)).toBe(before - 5_000_000);
    expect(movementCount(a.id)).toBe(1);
    expect(id).toBeGreaterThan(0);
    expect(await request(a, { amount: "0.05", request_id: "short" })).toEqual(refusal(R.requestId, 400));
  });

  it("lets only one of two withdrawals that together exceed the balance through", async () => {
    const a = account({ btc: 1 });
    const both = await Promise.all([viaKey(a, { amount: "0.6" }), viaKey(a, { amount: "0.6" })]);
    expect(both.map((r) => r[0]).sort()).toEqual([200, 500]);
    expect(both.find((r) => r[0] === 500)?.[1]).toEqual(["error", 10001, R.insufficient]);
    expect(units(a.id)).toBe(40_000_000);
    expect(await reconciled(a)).toBe(true);
  });
});

describe("bad input", () => {
  it("is refused with nothing moved, no movement, no ledger row", async () => {
    const a = account();
    const before = units(a.id);
    const rows = ledgerRows(a.id);
    const cases: [Record<string, unknown>, [number, unknown]][] = [
      [{ amount: "NaN" }, refusal(R.amount, 400)],
      [{ amount: "Infinity" }, refusal(R.amount, 400)],
      [{ amount: "-0.01" }, refusal(R.amount, 400)],
      [{ amount: "1e-2" }, refusal(R.amount, 400)],
      [{ amount: "0x10" }, refusal(R.amount, 400)],
      [{ amount: "0.123456789" }, refusal(R.precision, 400)],
      [{ amount: "0.0004" }, refusal(R.belowMinimum)],
      [{ amount: "0.01", wallet: "savings" }, refusal(R.wallet, 400)],
      [{ amount: "0.01", method: "dogecoin" }, refusal(R.method, 400)],
      [{ amount: "0.01", address: `${SEGWIT.slice(0, -1)}p` }, refusal(R.address)],
      [{ amount: "0.01", address: XRP }, refusal(R.address)],
      [{ amount: "0.01", payment_id: "7" }, refusal(R.paymentId)],
      [{ amount: "5" }, refusal(R.insufficient)],
      [{ method: "ripple", address: XRP, amount: "1", payment_id: "07" }, refusal(R.paymentId)],
    ];
    for (const [body, answer] of cases) {
      expect(await viaKey(a, body), JSON.stringify(body)).toEqual(answer);
      expect(await request(a, { ...body, code: "123456" }), JSON.stringify(body)).toEqual(answer);
    }
    expect(units(a.id)).toBe(before);
    expect(ledgerRows(a.id)).toBe(rows);
    expect(movementCount(a.id)).toBe(0);
  });
});

describe("a restart", () => {
  it("carries a PENDING withdrawal on to COMPLETED and expires an UNCONFIRMED one after the hour", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "withdrawals-")), "exchange.db");
    let t = Date.now();
    const first = openVenue({ dbPath: path, seed: 3, now: () => t, markets: [{ symbol: "tBTCUSD", start: 40_000 }] });
    const user = first.seeded ?? 0;
    const demoKey = first.accounts.createApiKey(user, "w", ["w", "wd"], t);
    const server = testApiLike(first, () => t);
    await server.start();
    const send = (body: Record<string, unknown>) =>
      signedPost(server.host, demoKey, "/v2/auth/w/withdraw", { ...BTC, ...body });
    const unconfirmed = idOf(await send({ amount: "0.1" }));
    first.db
      .prepare("INSERT INTO security_settings (user_id, name, value) VALUES (?, 'no_enforce_withdrawal_check', '1')")
      .run(user);
    const pending = idOf(await send({ amount: "0.2" }));
    const before = first.balances.wallet(user, "exchange", "BTC").balance;
    await server.stop();
    first.db.close();

    // A new exchange on the same file, later than both steps and than the link's hour.
    t += 2 * 3_600_000;
    const second = openVenue({ dbPath: path, seed: 3, now: () => t, markets: [{ symbol: "tBTCUSD", start: 40_000 }] });
    second.funds.withdrawals.tick();
    const status = (id: number) =>
      (second.db.prepare("SELECT status FROM movements WHERE id = ?").get(id) as { status: string }).status;
    expect(status(pending)).toBe("COMPLETED");
    expect(status(unconfirmed)).toBe("CANCELED");
    // The unconfirmed one refunded, once.
    expect(second.balances.wallet(user, "exchange", "BTC").balance).toBe(before + 10_000_000);
    second.funds.withdrawals.tick();
    expect(second.balances.wallet(user, "exchange", "BTC").balance).toBe(before + 10_000_000);
    second.db.close();
    // The database file holds it all for the next one.
    const reopened = openDb(path);
    expect(
      reopened.prepare("SELECT status FROM movements WHERE id IN (?, ?) ORDER BY id").all(unconfirmed, pending),
    ).toEqual([{ status: "CANCELED" }, { status: "COMPLETED" }]);
    reopened.close();
  });

  it("keeps going in the exchange process after a SIGKILL (WITHDRAW_STEP_MS)", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "withdrawals-kill-")), "exchange.db");
    const env = { WITHDRAW_STEP_MS: "300", RATE_LIMITS: "auth=100000,login=1000" };
    const first = await startExchangeProcess(path, env);
    const at = (port: number) => `127.0.0.1:${port + 1}`;
    const demoKey = { key: "demo-api-key", secret: "demo-api-secret" };
    // The demo account's key, its mails unconfirmed: turn the check off through the database below.
    const onFile = openDb(path);
    onFile
      .prepare(
        "INSERT INTO security_settings (user_id, name, value) SELECT id, 'no_enforce_withdrawal_check', '1' FROM users WHERE username = 'demo'",
      )
      .run();
    onFile.close();
    const id = idOf(await signedPost(at(first.port), demoKey, "/v2/auth/w/withdraw", { ...BTC, amount: "0.1" }));
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    const second = await startExchangeProcess(path, env, first.port);
    const read = () => {
      const d = openDb(path);
      const row = d.prepare("SELECT status FROM movements WHERE id = ?").get(id) as { status: string };
      d.close();
      return row.status;
    };
    const t0 = Date.now();
    while (read() !== "COMPLETED" && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 100));
    expect(read()).toBe("COMPLETED");
    second.child.kill("SIGKILL");
  }, 60_000);
});

/** An API host over another venue (the restart test's), started and stopped by the test itself. */
function testApiLike(v: ReturnType<typeof openVenue>, now: () => number) {
  let stop: () => Promise<void> = () => Promise.resolve();
  let host = "";
  return {
    get host() {
      return host;
    },
    async start() {
      const { listenApi } = await import("../test-support/api.ts");
      const started = await listenApi({ exchange: v.exchange, account: v.gateway, now });
      host = started.host;
      stop = () => started.api.close();
    },
    stop: () => stop(),
  };
}

/** An account socket authenticated with `token`, its channel-0 frames collected. */
async function openSocket(token: string) {
  const { default: WebSocket } = await import("ws");
  const ws = new WebSocket(`ws://${api.host}/ws/2`);
  const frames: unknown[][] = [];
  ws.on("message", (d: Buffer) => {
    const f = JSON.parse(d.toString()) as unknown;
    if (Array.isArray(f) && f[0] === 0) frames.push(f);
  });
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ event: "auth", token }));
  await until(() => frames.some((f) => f[1] === "ws"), "the wallet snapshot");
  return { ws, frames };
}
