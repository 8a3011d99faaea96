/**
 * The worker's ledger check against the embedded exchange: the rows read over real HTTP with the
 * worker's own signing (a token, and an API key whose secret only AccountAuth holds), paged across
 * rows that share a millisecond, and compared with what the exchange's own `r/ledgers/reconcile`
 * says — then a ledger row and a balance altered behind the exchange's back, which both must see.
 */
import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ledgerReconciliationCodec, walletCodec, type Wallet } from "../../protocol";
import { demoSession } from "../../../server/test-support/session.ts";
import { openVenue } from "../../../server/exchange/venue.ts";
import { toUnits } from "../../../server/store/db.ts";
import { globalScheduler } from "../../../tests/support/timers.ts";
import { AccountAuth } from "./auth";
import { checkLedgers, reconcile } from "./ledger-check";

const venue = openVenue({ dbPath: ":memory:", seed: 5, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const demoId = venue.seeded as number;
const timers = globalScheduler();
const api = demoSession({ exchange: venue.exchange, account: venue.gateway });

function auth(credentials: Parameters<AccountAuth["begin"]>[0]): AccountAuth {
  const a = new AccountAuth({
    crypto: webcrypto.subtle,
    now: () => Date.now(),
    send: () => false,
    stop: () => undefined,
    reconnect: () => undefined,
  });
  // No socket here: begin() only holds the credentials, which is all the REST headers need.
  void a.begin(credentials);
  return a;
}

async function walletsNow(): Promise<Wallet[]> {
  const r = await api.rest("/v2/auth/r/wallets", {});
  const d = walletCodec.decodeList(r.body);
  if (!d.ok) throw new Error("wallets did not decode");
  return d.value;
}

async function check(a: AccountAuth, pageSize: number) {
  const wallets = await walletsNow();
  return checkLedgers({
    base: `http://${api.host}`,
    fetch: (url, init) => fetch(url, init),
    timers,
    headers: (path, body) => a.restHeaders(path, body),
    account: () => ({ version: 1, wallets }),
    pageSize,
  });
}

async function exchangeSays() {
  const d = ledgerReconciliationCodec.decodeList((await api.rest("/v2/auth/r/ledgers/reconcile", {})).body);
  if (!d.ok) throw new Error("reconcile did not decode");
  return d.value;
}

describe("the worker's ledger check against the embedded exchange", () => {
  it("pages the whole ledger with a token and with an API key, and agrees with the exchange", async () => {
    // Several rows in one millisecond on both wallets: the cursor must neither skip nor repeat them.
    venue.balances.funds((move) => {
      for (let i = 0; i < 7; i++) {
        move(demoId, "exchange", "USD", -toUnits(1.5), "Transfer of 1.5 USD from wallet exchange to margin");
        move(demoId, "margin", "USD", toUnits(1.5), "Transfer of 1.5 USD from wallet exchange to margin");
      }
    });
    const expected = await exchangeSays();
    expect(expected.some((w) => w.rows >= 8)).toBe(true);

    const byToken = await check(auth({ kind: "token", token: venue.accounts.issueToken(demoId, Date.now()) }), 3);
    expect(byToken).toEqual({ ok: true, wallets: expected });

    const key = venue.accounts.createApiKey(demoId, "ledger", ["a", "w"], Date.now(), {
      key: "k-ledger",
      secret: "s-ledger",
    });
    const byKey = await check(auth({ kind: "apiKey", key: key.key, secret: "s-ledger" }), 4);
    expect(byKey).toEqual({ ok: true, wallets: expected });
    expect(expected.every((w) => w.chained)).toBe(true);
  });

  it("finds a row whose balance does not follow, and a wallet that ends off its ledger", async () => {
    const row = venue.db
      .prepare(
        "SELECT id, mts, balance FROM ledgers WHERE user_id = ? AND currency = 'USD' AND wallet = 'margin' ORDER BY id LIMIT 1 OFFSET 2",
      )
      .get(demoId) as { id: number; mts: number; balance: number };
    venue.db.prepare("UPDATE ledgers SET balance = balance + 1 WHERE id = ?").run(row.id);
    venue.db
      .prepare("UPDATE wallets SET balance = balance + 5 WHERE user_id = ? AND currency = 'BTC' AND type = 'exchange'")
      .run(demoId);

    const result = await check(auth({ kind: "token", token: venue.accounts.issueToken(demoId, Date.now()) }), 5);
    if (!result.ok) throw new Error(result.error);
    const margin = result.wallets.find((w) => w.currency === "USD" && w.wallet === "margin");
    expect(margin).toMatchObject({
      chained: false,
      breakId: row.id,
      breakTime: row.mts,
      found: (row.balance + 1) / 1e8,
    });
    const btc = result.wallets.find((w) => w.currency === "BTC" && w.wallet === "exchange");
    expect(btc).toMatchObject({ chained: false, breakId: null });
    expect(result.wallets).toEqual(await exchangeSays());
  });

  it("says why it could not check: signed out, refused, unreachable", async () => {
    const signedOut = new AccountAuth({
      crypto: webcrypto.subtle,
      now: () => Date.now(),
      send: () => false,
      stop: () => undefined,
      reconnect: () => undefined,
    });
    expect(await check(signedOut, 10)).toEqual({ ok: false, error: "signed-out" });
    expect(await check(auth({ kind: "token", token: "not-a-token" }), 10)).toEqual({ ok: false, error: "refused" });
    const nowhere = await checkLedgers({
      base: "http://127.0.0.1:9",
      fetch: (url, init) => fetch(url, init),
      timers,
      headers: () => Promise.resolve({ "bfx-token": "x" }),
      account: () => ({ version: 1, wallets: [] }),
    });
    expect(nowhere).toEqual({ ok: false, error: "unreachable" });
    // Signed in, but the socket's wallet snapshot has not come: nothing to compare with yet.
    const early = await checkLedgers({
      base: `http://${api.host}`,
      fetch: (url, init) => fetch(url, init),
      timers,
      headers: () => Promise.resolve({ "bfx-token": venue.accounts.issueToken(demoId, Date.now()) }),
      account: () => ({ version: 1, wallets: null }),
    });
    expect(early).toEqual({ ok: false, error: "no-wallets" });
  });

  it("reads again when the account changed while a wallet did not reconcile", async () => {
    let version = 0;
    let reads = 0;
    const rows = [[1, "USD", "exchange", 10, null, 5, 5, null, "Deposit"]];
    const result = await checkLedgers({
      base: "http://x",
      fetch: () => {
        reads++;
        // The second read sees the row the wallet update came with.
        const body = reads === 1 ? rows : [[2, "USD", "exchange", 11, null, 1, 6, null, "Deposit"], ...rows];
        return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(body) });
      },
      timers,
      headers: () => Promise.resolve({}),
      account: () => ({
        version: ++version,
        wallets: [{ type: "exchange", currency: "USD", balance: 6 } as Wallet],
      }),
    });
    expect(reads).toBe(2);
    expect(result).toMatchObject({
      ok: true,
      wallets: [{ currency: "USD", wallet: "exchange", rows: 2, chained: true }],
    });
    // A wallet with rows but no balance on the socket ends off them; one without rows is 0 and chained.
    expect(reconcile([], [{ type: "funding", currency: "EUR", balance: 0 } as Wallet])).toMatchObject([
      { chained: true, rows: 0 },
    ]);
  });
});
