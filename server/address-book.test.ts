/**
 * The withdrawal address book over HTTP and SQLite (docs/product-rules.md#withdrawal-addresses):
 * the address check, adding with the owner's proof and a mailed single-use link, duplicates and
 * empty rows, the whitelist and the disabled marker as `w/withdraw` enforces them, and refusals
 * that write, mail and reserve nothing.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADDRESS_CONFIRM_TTL_MS } from "./address-book.ts";
import { openVenue } from "./exchange/venue.ts";
import { OWNER_PROOF_WINDOW_MS } from "./owner-proof.ts";
import { DEFAULT_LIMITS } from "./rate-limit.ts";
import { mailsTo } from "./test-support/api.ts";
import { signedPost, testApi } from "./test-support/session.ts";
import { newTotpSecret, totp } from "./store/totp.ts";
import { DEMO } from "./store/seed.ts";
import { startExchangeProcess } from "./test-support/exchange-process.ts";
import {
  addressBookCodec,
  notificationCodec,
  WITHDRAW_REFUSALS,
  withdrawalCodec,
  type AddressBook,
} from "../src/protocol/index.ts";

const venue = openVenue({
  dbPath: ":memory:",
  seed: 7,
  // XRP too: a withdrawal is valued in USD (its daily limit) at the exchange's own rate.
  markets: [
    { symbol: "tBTCUSD", start: 30_000 },
    { symbol: "tXRPUSD", start: 2 },
  ],
});
const clock = (): number => Date.now();

const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  now: clock,
  // The book is on the public path group (/v1/…): its calls count there.
  limits: { ...DEFAULT_LIMITS, login: 1000, auth: 10_000, public: 10_000 },
});

const BOOK = "/v1/account_address_book_entries";
const PASSWORD = "long-enough-pw";
const SEGWIT = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const TAPROOT = "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0";
const LEGACY = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa";

const { post } = api;

let n = 0;
interface Account {
  readonly id: number;
  readonly email: string;
  readonly token: string;
  /** A key with the withdraw permission: it withdraws without a second-factor code (server/exchange/withdrawals.ts). */
  readonly key: { key: string; secret: string };
}

/** A new account with level 2 (withdrawals allowed), 1 BTC in its exchange wallet, signed in. */
async function account(): Promise<Account> {
  n += 1;
  const email = `book${n}@example.com`;
  const id = venue.accounts.createUser(email, `book${n}`, PASSWORD, Date.now(), true);
  venue.accounts.db.prepare("UPDATE users SET verification_level = 2 WHERE id = ?").run(id);
  venue.funds.deposit(id, "BTC", 1, "Deposit");
  const [status, body] = await post("/v2/login", { login: `book${n}`, password: PASSWORD });
  expect(status).toBe(200);
  const key = venue.accounts.createApiKey(id, "withdrawals", ["w", "wd"], Date.now());
  return { id, email, token: (body as string[])[0] as string, key };
}

async function book(token: string): Promise<AddressBook> {
  const [status, body] = await post(BOOK, { action: "list" }, token);
  expect(status).toBe(200);
  const decoded = addressBookCodec.decode(body);
  if (!decoded) throw new Error(`not a book: ${JSON.stringify(body)}`);
  return decoded;
}

const btc = (b: AddressBook) => b.currencies.find((c) => c.currency === "BTC");

function add(token: string, addresses: readonly string[], extra: Record<string, unknown> = {}) {
  return post(
    BOOK,
    {
      action: "add",
      currency: "BTC",
      method: "bitcoin",
      label: "Cold storage",
      addresses: addresses.map((address) => ({ address })),
      beneficiary: { type: "self" },
      password: PASSWORD,
      ...extra,
    },
    token,
  );
}

const NONE_WAITING = { pendingWhitelistOff: null, pendingEnable: null };

/** The token of the newest `?apply=` link mailed to `email` under `subject`. */
async function applyLink(email: string, subject: string): Promise<string> {
  const mail = (await mailsTo(api.base, email)).find((m) => m.subject === subject);
  return /\/security\/addresses\?apply=([0-9a-f]{64})/.exec(mail?.body ?? "")?.[1] ?? "";
}

/** The token of the newest confirmation link mailed to `email`. */
async function mailedLink(email: string): Promise<string> {
  const mail = (await mailsTo(api.base, email)).find((m) => m.subject === "Confirm a new withdrawal address");
  return /\/security\/addresses\?confirm=([0-9a-f]{64})/.exec(mail?.body ?? "")?.[1] ?? "";
}

async function available(token: string): Promise<number> {
  const [, wallets] = await post("/v2/auth/r/wallets", {}, token);
  const row = (wallets as unknown[][]).find((w) => w[0] === "exchange" && w[1] === "BTC");
  return row?.[4] as number;
}

const withdraw = (a: Account, address: string) =>
  signedPost(api.host, a.key, "/v2/auth/w/withdraw", {
    wallet: "exchange",
    method: "bitcoin",
    amount: "0.01",
    address,
  });

describe("the address check", () => {
  it("answers valid with the address's written form, or the reason", async () => {
    const a = await account();
    expect(await post("/v1/ui_check_address", { currency: "BTC", address: SEGWIT.toUpperCase() }, a.token)).toEqual([
      200,
      { valid: true, address: SEGWIT, reason: null },
    ]);
    expect(
      await post("/v1/ui_check_address", { currency: "BTC", address: `${SEGWIT.slice(0, -1)}p` }, a.token),
    ).toEqual([200, { valid: false, address: null, reason: "checksum" }]);
    expect(
      await post(
        "/v1/ui_check_address",
        { method: "ripple", address: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", payment_id: "x1" },
        a.token,
      ),
    ).toEqual([200, { valid: false, address: null, reason: "payment-id-format" }]);
    expect((await post("/v1/ui_check_address", { currency: "DOGE", address: "x" }, a.token))[0]).toBe(400);
    // Authenticated, like every v1 account call.
    expect((await post("/v1/ui_check_address", { currency: "BTC", address: SEGWIT }))[0]).toBe(500);
  });
});

describe("adding addresses", () => {
  it("refuses a wrong password, a bad row or a bad beneficiary, writing and mailing nothing", async () => {
    const a = await account();
    expect(await add(a.token, [SEGWIT], { password: "wrong-password" })).toEqual([
      400,
      ["error", 10020, "password: invalid"],
    ]);
    expect(await add(a.token, [SEGWIT, `${LEGACY.slice(0, -1)}b`])).toEqual([
      400,
      ["error", 10020, "addresses[1]: checksum"],
    ]);
    expect(await add(a.token, ["tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7"])).toEqual([
      400,
      ["error", 10020, "addresses[0]: testnet"],
    ]);
    expect(await add(a.token, [SEGWIT], { beneficiary: { type: "third_party", name: "Ann" } })).toEqual([
      400,
      ["error", 10020, "beneficiary country: invalid"],
    ]);
    expect(await add(a.token, [SEGWIT], { label: " " })).toEqual([400, ["error", 10020, "label: invalid"]]);
    expect(await add(a.token, [SEGWIT], { method: "ethereum" })).toEqual([400, ["error", 10020, "method: invalid"]]);
    const b = await book(a.token);
    expect(b.entries).toEqual([]);
    expect(btc(b)).toEqual({ ...NONE_WAITING, currency: "BTC", whitelist: false, disabled: false });
    expect(await mailsTo(api.base, a.email)).toEqual([]);
  });

  it("drops empty rows, flags the first duplicate as existing, and turns the whitelist on", async () => {
    const a = await account();
    expect(await add(a.token, [SEGWIT, SEGWIT.toUpperCase()])).toEqual([
      400,
      ["error", 10020, "addresses[1]: existing"],
    ]);
    const [status] = await add(a.token, ["", SEGWIT, "  ", LEGACY], {
      beneficiary: { type: "third_party", name: "Ann Example", country: "de" },
    });
    expect(status).toBe(200);
    const b = await book(a.token);
    expect(b.entries.map((e) => [e.address, e.status, e.label])).toEqual([
      [SEGWIT, "pending", "Cold storage"],
      [LEGACY, "pending", "Cold storage"],
    ]);
    expect(b.entries[0]?.beneficiary).toEqual({ type: "third_party", name: "Ann Example", country: "DE" });
    expect(btc(b)).toEqual({ ...NONE_WAITING, currency: "BTC", whitelist: true, disabled: false });
    // Already in the book, in another written form.
    expect(await add(a.token, [SEGWIT.toUpperCase()])).toEqual([400, ["error", 10020, "addresses[0]: existing"]]);
  });

  it("needs the current authenticator code when the account has one, good once", async () => {
    const a = await account();
    const secret = newTotpSecret();
    venue.accounts.db.prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(secret, a.id);
    expect(await add(a.token, [SEGWIT])).toEqual([400, ["error", 10020, "otp: current code required"]]);
    const code = totp(secret, clock());
    expect((await add(a.token, [SEGWIT], { currentToken: code }))[0]).toBe(200);
    expect(await add(a.token, [TAPROOT], { currentToken: code })).toEqual([
      400,
      ["error", 10020, "otp: current code required"],
    ]);
  });

  it("answers a session's own token only", async () => {
    const a = await account();
    const limited = venue.accounts.issueToken(a.id, Date.now(), 60_000, ["a", "w", "wd"], null, null);
    expect(await post(BOOK, { action: "list" }, limited)).toEqual([
      500,
      ["error", 10100, "address book: a session token is required"],
    ]);
  });
});

describe("confirmation and the whitelist on withdrawals", () => {
  it("withdraws only to confirmed entries while the whitelist is on, reserving nothing when refused", async () => {
    const a = await account();
    const other = await account();
    expect((await add(a.token, [SEGWIT]))[0]).toBe(200);
    const token = await mailedLink(a.email);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const before = await available(a.token);
    // Pending: not yet a destination.
    expect(await withdraw(a, SEGWIT)).toEqual([500, ["error", 10001, WITHDRAW_REFUSALS.whitelist]]);
    // Another account cannot confirm it, even holding the link.
    expect(await post(BOOK, { action: "confirm", token }, other.token)).toEqual([
      400,
      ["error", 10020, "link: invalid"],
    ]);
    expect((await post(BOOK, { action: "confirm", token }, a.token))[0]).toBe(200);
    expect((await book(a.token)).entries[0]?.status).toBe("confirmed");
    // The link works once.
    expect((await post(BOOK, { action: "confirm", token }, a.token))[0]).toBe(400);
    expect(await withdraw(a, LEGACY)).toEqual([500, ["error", 10001, WITHDRAW_REFUSALS.whitelist]]);
    expect(await available(a.token)).toBeCloseTo(before, 8);
    expect((await withdraw(a, SEGWIT.toUpperCase()))[0]).toBe(200);
    expect(await available(a.token)).toBeCloseTo(before - 0.01, 8);
    // A malformed address is refused before anything else, on any account.
    expect(await withdraw(other, `${SEGWIT.slice(0, -1)}p`)).toEqual([500, ["error", 10001, "address: invalid"]]);
  });

  it("lets a link run out after an hour", async () => {
    const a = await account();
    expect((await add(a.token, [TAPROOT]))[0]).toBe(200);
    const token = await mailedLink(a.email);
    const row = venue.accounts.db
      .prepare("SELECT created_at, confirm_expires FROM address_book WHERE user_id = ?")
      .get(a.id) as { created_at: number; confirm_expires: number };
    expect(row.confirm_expires - row.created_at).toBe(ADDRESS_CONFIRM_TTL_MS);
    // An hour later (the session's own token would not live that long on a moved clock).
    venue.accounts.db
      .prepare("UPDATE address_book SET confirm_expires = ? WHERE user_id = ?")
      .run(Date.now() - 1, a.id);
    expect((await book(a.token)).entries[0]?.status).toBe("expired");
    expect((await post(BOOK, { action: "confirm", token }, a.token))[0]).toBe(400);
  });

  it("turns the whitelist off only with the owner's proof and then the mailed link", async () => {
    const a = await account();
    const other = await account();
    expect((await add(a.token, [SEGWIT]))[0]).toBe(200);
    expect(await post(BOOK, { action: "whitelist", currency: "BTC", on: false }, a.token)).toEqual([
      400,
      ["error", 10020, "password: invalid"],
    ]);
    expect(btc(await book(a.token))?.whitelist).toBe(true);
    const asked = Date.now();
    const [status] = await post(BOOK, { action: "whitelist", currency: "BTC", on: false, password: PASSWORD }, a.token);
    expect(status).toBe(200);
    // Password and code are what a thief may hold: the whitelist stays on until the mailbox answers.
    const waiting = btc(await book(a.token));
    expect(waiting?.whitelist).toBe(true);
    expect(waiting?.pendingWhitelistOff).toBeGreaterThanOrEqual(asked + ADDRESS_CONFIRM_TTL_MS);
    expect((await withdraw(a, LEGACY))[0]).toBe(500);
    const link = await applyLink(a.email, "Confirm turning the BTC withdrawal whitelist off");
    expect(link).toMatch(/^[0-9a-f]{64}$/);
    // Only the hash is stored; another account's session cannot use the link.
    const stored = venue.accounts.db.prepare("SELECT token_hash FROM withdrawal_changes WHERE user_id = ?").all(a.id);
    expect(JSON.stringify(stored)).not.toContain(link);
    expect(await post(BOOK, { action: "apply", token: link }, other.token)).toEqual([
      400,
      ["error", 10020, "link: invalid"],
    ]);
    expect((await post(BOOK, { action: "apply", token: link }, a.token))[0]).toBe(200);
    expect(btc(await book(a.token))).toMatchObject({ whitelist: false, pendingWhitelistOff: null });
    expect((await post(BOOK, { action: "apply", token: link }, a.token))[0]).toBe(400);
    expect((await withdraw(a, LEGACY))[0]).toBe(200);
    // Back on needs no proof: it only narrows where money may go.
    expect((await post(BOOK, { action: "whitelist", currency: "BTC", on: true }, a.token))[0]).toBe(200);
    expect((await withdraw(a, LEGACY))[0]).toBe(500);
  });
});

describe("turning withdrawals off", () => {
  it("refuses every withdrawal of a currency after the disabled marker, until turned on with proof", async () => {
    const a = await account();
    expect((await add(a.token, ["DISABLED"]))[0]).toBe(200);
    const b = await book(a.token);
    expect(b.entries).toEqual([]);
    expect(btc(b)).toEqual({ ...NONE_WAITING, currency: "BTC", whitelist: false, disabled: true });
    const before = await available(a.token);
    expect(await withdraw(a, SEGWIT)).toEqual([500, ["error", 10001, WITHDRAW_REFUSALS.withdrawalsOff]]);
    expect(await available(a.token)).toBeCloseTo(before, 8);
    expect((await post(BOOK, { action: "withdrawals", currency: "BTC", enabled: true }, a.token))[0]).toBe(400);
    expect(
      (await post(BOOK, { action: "withdrawals", currency: "BTC", enabled: true, password: PASSWORD }, a.token))[0],
    ).toBe(200);
    // Still off until the mailed link is opened.
    expect(btc(await book(a.token))).toMatchObject({ disabled: true, pendingEnable: expect.any(Number) as number });
    expect((await withdraw(a, SEGWIT))[0]).toBe(500);
    const link = await applyLink(a.email, "Confirm turning withdrawals on");
    expect((await post(BOOK, { action: "apply", token: link }, a.token))[0]).toBe(200);
    expect((await withdraw(a, SEGWIT))[0]).toBe(200);
  });

  it("stays off after an address is added, until that address's mailed link is opened", async () => {
    const a = await account();
    expect((await add(a.token, ["DISABLED"]))[0]).toBe(200);
    // Password and code are not the mailbox: adding an address lifts nothing by itself.
    expect((await add(a.token, [SEGWIT]))[0]).toBe(200);
    expect(btc(await book(a.token))).toMatchObject({ whitelist: true, disabled: true });
    expect(await withdraw(a, SEGWIT)).toEqual([500, ["error", 10001, WITHDRAW_REFUSALS.withdrawalsOff]]);
    expect((await post(BOOK, { action: "confirm", token: await mailedLink(a.email) }, a.token))[0]).toBe(200);
    expect(btc(await book(a.token))).toMatchObject({ whitelist: true, disabled: false });
    expect((await withdraw(a, SEGWIT))[0]).toBe(200);
  });

  it("drops a waiting loosening on cancel, on a newer request, when tightened again, and after an hour", async () => {
    const a = await account();
    const enable = () =>
      post(BOOK, { action: "withdrawals", currency: "BTC", enabled: true, password: PASSWORD }, a.token);
    const link = () => applyLink(a.email, "Confirm turning withdrawals on");
    expect((await add(a.token, ["DISABLED"]))[0]).toBe(200);
    // The page's cancel.
    expect((await enable())[0]).toBe(200);
    const cancelled = await link();
    expect((await post(BOOK, { action: "cancel", currency: "BTC", kind: "enable" }, a.token))[0]).toBe(200);
    expect(btc(await book(a.token))?.pendingEnable).toBeNull();
    expect(await post(BOOK, { action: "cancel", currency: "BTC", kind: "enable" }, a.token)).toEqual([
      400,
      ["error", 10020, "pending: none"],
    ]);
    expect((await post(BOOK, { action: "apply", token: cancelled }, a.token))[0]).toBe(400);
    // A newer request replaces the older one's link.
    expect((await enable())[0]).toBe(200);
    const replaced = await link();
    expect((await enable())[0]).toBe(200);
    expect((await post(BOOK, { action: "apply", token: replaced }, a.token))[0]).toBe(400);
    // Turning them off again (a tightening) drops what waited.
    const tightened = await link();
    expect((await post(BOOK, { action: "withdrawals", currency: "BTC", enabled: false }, a.token))[0]).toBe(200);
    expect((await post(BOOK, { action: "apply", token: tightened }, a.token))[0]).toBe(400);
    // A link that ran out does nothing.
    expect((await enable())[0]).toBe(200);
    const late = await link();
    venue.accounts.db
      .prepare("UPDATE withdrawal_changes SET expires_at = ? WHERE user_id = ?")
      .run(Date.now() - 1, a.id);
    expect(btc(await book(a.token))?.pendingEnable).toBeNull();
    expect((await post(BOOK, { action: "apply", token: late }, a.token))[0]).toBe(400);
    expect(btc(await book(a.token))?.disabled).toBe(true);
  });

  it("turns every currency off and on at once", async () => {
    const a = await account();
    expect((await post(BOOK, { action: "withdrawals", enabled: false }, a.token))[0]).toBe(200);
    const off = await book(a.token);
    expect(off.currencies.every((c) => c.disabled)).toBe(true);
    expect(off.currencies.map((c) => c.currency)).toEqual(["BTC", "ETH", "LTC", "XRP", "SOL"]);
    expect((await post(BOOK, { action: "withdrawals", enabled: true, password: PASSWORD }, a.token))[0]).toBe(200);
    expect((await book(a.token)).currencies.every((c) => c.disabled && c.pendingEnable !== null)).toBe(true);
    const link = await applyLink(a.email, "Confirm turning withdrawals on");
    expect((await post(BOOK, { action: "apply", token: link }, a.token))[0]).toBe(200);
    expect((await book(a.token)).currencies.some((c) => c.disabled)).toBe(false);
  });
});

describe("the owner's proof", () => {
  it("refuses every proof for a while after five wrong passwords, the right one too", async () => {
    const a = await account();
    expect((await add(a.token, [SEGWIT]))[0]).toBe(200);
    const off = (password: string) =>
      post(BOOK, { action: "whitelist", currency: "BTC", on: false, password }, a.token);
    for (let i = 0; i < 5; i++) expect(await off("wrong-guess")).toEqual([400, ["error", 10020, "password: invalid"]]);
    const locked = [400, ["error", 10020, "proof: too many attempts, try again later"]];
    expect(await off(PASSWORD)).toEqual(locked);
    // Every check behind the session shares the count (here: adding an address).
    expect(await add(a.token, [LEGACY])).toEqual(locked);
    expect(btc(await book(a.token))?.pendingWhitelistOff).toBeNull();
    // Another account is not affected; once the failures leave the window, the password works.
    const b = await account();
    expect((await add(b.token, [SEGWIT]))[0]).toBe(200);
    venue.accounts.db
      .prepare("UPDATE owner_proof_failures SET mts = mts - ? WHERE user_id = ?")
      .run(OWNER_PROOF_WINDOW_MS, a.id);
    expect((await off(PASSWORD))[0]).toBe(200);
  });
});

describe("editing the book", () => {
  it("renames and deletes the account's own entries only", async () => {
    const a = await account();
    const other = await account();
    expect((await add(a.token, [SEGWIT]))[0]).toBe(200);
    const id = (await book(a.token)).entries[0]?.id;
    expect(await post(BOOK, { action: "update", id, label: "Mine" }, other.token)).toEqual([
      400,
      ["error", 10020, "entry: not found"],
    ]);
    expect(await post(BOOK, { action: "update", id, label: "x".repeat(65) }, a.token)).toEqual([
      400,
      ["error", 10020, "label: invalid"],
    ]);
    expect((await post(BOOK, { action: "update", id, label: "Hardware wallet" }, a.token))[0]).toBe(200);
    expect((await book(a.token)).entries[0]?.label).toBe("Hardware wallet");
    expect((await post(BOOK, { action: "delete", id }, other.token))[0]).toBe(400);
    expect((await post(BOOK, { action: "delete", id }, a.token))[0]).toBe(200);
    expect((await book(a.token)).entries).toEqual([]);
    expect((await post(BOOK, { action: "nothing" }, a.token))[1]).toEqual(["error", 10020, "action: invalid"]);
  });
});

describe("destination tags", () => {
  it("whitelists an XRP address with its tag: another tag is another destination", async () => {
    const a = await account();
    venue.funds.deposit(a.id, "XRP", 100, "Deposit");
    const xrp = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
    const [status] = await post(
      BOOK,
      {
        action: "add",
        currency: "XRP",
        method: "ripple",
        label: "Exchange account",
        addresses: [{ address: xrp, payment_id: "104512" }],
        beneficiary: { type: "self" },
        password: PASSWORD,
      },
      a.token,
    );
    expect(status).toBe(200);
    expect((await post(BOOK, { action: "confirm", token: await mailedLink(a.email) }, a.token))[0]).toBe(200);
    const send = (payment_id: string) =>
      signedPost(api.host, a.key, "/v2/auth/w/withdraw", {
        wallet: "exchange",
        method: "ripple",
        amount: "5",
        address: xrp,
        payment_id,
      });
    expect(await send("7")).toEqual([500, ["error", 10001, WITHDRAW_REFUSALS.whitelist]]);
    expect(await send("07")).toEqual([500, ["error", 10001, "payment_id: invalid"]]);
    const [ok, body] = await send("104512");
    expect(ok).toBe(200);
    // The tag travels with the withdrawal record (WITHDRAWAL's payment id).
    const note = notificationCodec.decode(body);
    expect(note.ok && withdrawalCodec.decode(note.value.data)).toMatchObject({
      ok: true,
      value: { method: "ripple", paymentId: "104512", amount: 5 },
    });
  });
});

describe("a restart", () => {
  it("keeps the book, its confirmations and the whitelist (SQLite, SIGKILL)", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "address-book-")), "exchange.db");
    const env = { RATE_LIMITS: "auth=100000,login=1000" };
    const first = await startExchangeProcess(db, env);
    const at = (port: number) => `http://127.0.0.1:${port + 1}`;
    const call = async (port: number, path: string, body: unknown, token?: string): Promise<[number, unknown]> => {
      const res = await fetch(at(port) + path, {
        method: "POST",
        headers: token ? { "bfx-token": token } : {},
        body: JSON.stringify(body),
      });
      return [res.status, await res.json()];
    };
    const login = async (port: number) =>
      ((await call(port, "/v2/login", { login: DEMO.username, password: DEMO.password }))[1] as string[])[0] as string;
    let token = await login(first.port);
    const added = await call(
      first.port,
      BOOK,
      {
        action: "add",
        currency: "BTC",
        method: "bitcoin",
        label: "Cold storage",
        addresses: [{ address: SEGWIT }, { address: LEGACY }],
        beneficiary: { type: "third_party", name: "Ann Example", country: "DE" },
        password: DEMO.password,
      },
      token,
    );
    expect(added[0]).toBe(200);
    const mails = (await (await fetch(`${at(first.port)}/dev/outbox`)).json()) as { subject: string; body: string }[];
    const link = /confirm=([0-9a-f]{64})/.exec(
      mails.find((m) => m.subject === "Confirm a new withdrawal address")?.body ?? "",
    )?.[1];
    expect((await call(first.port, BOOK, { action: "confirm", token: link }, token))[0]).toBe(200);
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));

    const second = await startExchangeProcess(db, env, first.port);
    token = await login(second.port);
    const [, body] = await call(second.port, BOOK, { action: "list" }, token);
    const book = addressBookCodec.decode(body);
    expect(book?.entries.map((e) => [e.address, e.status, e.beneficiary])).toEqual([
      [SEGWIT, "confirmed", { type: "third_party", name: "Ann Example", country: "DE" }],
      [LEGACY, "confirmed", { type: "third_party", name: "Ann Example", country: "DE" }],
    ]);
    expect(book?.currencies.find((c) => c.currency === "BTC")).toEqual({
      currency: "BTC",
      whitelist: true,
      disabled: false,
      pendingWhitelistOff: null,
      pendingEnable: null,
    });
    // The demo account's key: a key withdraws without a second-factor code.
    const send = (address: string) =>
      signedPost(`127.0.0.1:${second.port + 1}`, { key: DEMO.apiKey, secret: DEMO.apiSecret }, "/v2/auth/w/withdraw", {
        wallet: "exchange",
        method: "bitcoin",
        amount: "0.01",
        address,
      });
    expect((await send(TAPROOT))[0]).toBe(500);
    expect((await send(SEGWIT))[0]).toBe(200);
    second.child.kill("SIGKILL");
  }, 60_000);
});
