/**
 * Deposits over HTTP, the account socket and SQLite (docs/product-rules.md#deposits): each
 * method's destination is a valid one of its network, a new address keeps the old one working, a
 * deposit sent through `/dev/deposit` is pending, confirms on the exchange's clock and is credited
 * exactly once with its ledger row, notifications and mails; unknown destinations and deposits
 * below the minimum credit nothing; the verification gate refuses an address; and a deposit pending
 * when the exchange is killed is carried on after it restarts.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkAddress,
  DEPOSIT_METHODS,
  depositAddressCodec,
  depositMethod,
  ibanValid,
  movementRowCodec,
  notificationCodec,
  WIRE_ACCOUNTS,
  XRP_POOL_ADDRESS,
  type MovementRow,
} from "../../src/protocol/index.ts";
import { DEMO } from "../store/seed.ts";
import { mailsTo } from "../test-support/api.ts";
import { startExchangeProcess } from "../test-support/exchange-process.ts";
import { demoSession, until, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

let clock = 1_750_000_000_000;
const venue = openVenue({ dbPath: ":memory:", seed: 5, now: () => clock });
const deposits = venue.funds.deposits;
deposits.blockMs = 1000;
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });
const DEV = { "x-orderflow-dev": "1" };

/** The next `n` blocks on the exchange's clock, and the tick that follows them. */
function blocks(n: number): void {
  clock += n * deposits.blockMs;
  deposits.tick();
}

async function sendDeposit(host: string, body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`http://${host}/dev/deposit`, { method: "POST", headers: DEV, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

async function destination(method: string, renew = false): Promise<{ address: string; pool: string | null }> {
  const r = await s.rest("/v2/auth/w/deposit/address", { wallet: "exchange", method, op_renew: renew ? 1 : 0 });
  expect(r.status, method).toBe(200);
  const n = notificationCodec.decode(r.body);
  if (!n.ok) throw new Error("not a notification");
  const d = depositAddressCodec.decode(n.value.data);
  if (!d.ok) throw new Error("not a deposit address");
  return { address: d.value.address, pool: d.value.poolAddress };
}

async function movements(currency: string): Promise<MovementRow[]> {
  const r = await s.rest(`/v2/auth/r/movements/${currency}/hist`, {});
  const rows = movementRowCodec.decodeList(r.body);
  if (!rows.ok) throw new Error("movements do not decode");
  return rows.value;
}

const balance = (currency: string): number => venue.balances.wallet(venue.seeded ?? 0, "exchange", currency).balance;

describe("deposit destinations", () => {
  it("are valid addresses of each method's network, the same until renewed, and the old ones stay", async () => {
    for (const m of DEPOSIT_METHODS) {
      const first = await destination(m.method);
      expect(await destination(m.method), m.method).toEqual(first);
      const renewed = await destination(m.method, true);
      expect(renewed.address, m.method).not.toBe(first.address);
      for (const d of [first, renewed]) {
        if (m.kind === "address") {
          const checked = checkAddress(m.addressRules ?? "bitcoin", d.address);
          expect(checked, `${m.method} ${d.address}`).toEqual({ ok: true, address: d.address });
          expect(d.pool).toBeNull();
        } else if (m.kind === "pooled") {
          expect(checkAddress("ripple", d.pool ?? "").ok).toBe(true);
          expect(Number(d.address)).toBeGreaterThan(0);
          expect(Number(d.address)).toBeLessThanOrEqual(4_294_967_295);
        } else {
          expect(d.address).toMatch(/^OF[0-9A-Z]{12}$/);
          expect(d.pool).toBe(WIRE_ACCOUNTS[m.currency]?.account);
        }
      }
    }
    expect((await destination("bitcoin")).address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
    expect(ibanValid(WIRE_ACCOUNTS["EUR"]?.account ?? "")).toBe(true);
  });

  it("refuses an unknown method or wallet, and an account below basic-plus", async () => {
    expect((await s.rest("/v2/auth/w/deposit/address", { wallet: "exchange", method: "dogecoin" })).status).toBe(400);
    expect((await s.rest("/v2/auth/w/deposit/address", { wallet: "vault", method: "bitcoin" })).status).toBe(400);
    const id = venue.accounts.createUser("low@example.com", "lowlevel", "pw-123456-long", clock, true);
    venue.db.prepare("UPDATE users SET verification_level = 0 WHERE id = ?").run(id);
    const login = await fetch(`http://${s.host}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: "lowlevel", password: "pw-123456-long" }),
    });
    const [token] = (await login.json()) as [string];
    const r = await fetch(`http://${s.host}/v2/auth/w/deposit/address`, {
      method: "POST",
      headers: { "bfx-token": token },
      body: JSON.stringify({ wallet: "exchange", method: "bitcoin" }),
    });
    expect(await r.json()).toEqual(["error", 10001, "verification: level 1 needed to deposit (this account has 0)"]);
    expect(venue.db.prepare("SELECT COUNT(*) AS n FROM deposit_destinations WHERE user_id = ?").get(id)).toEqual({
      n: 0,
    });
  });
});

describe("a deposit", () => {
  it("is pending, confirms on the clock, and is credited once with its ledger row, notifications and mails", async () => {
    const { ws, frames } = await s.socket();
    // An API key's socket that may read wallets hears of the deposit too: arrival and credit.
    const key = venue.accounts.createApiKey(venue.seeded ?? 0, "wallet-reader", ["w"], clock, {
      key: "k-deposit-reader",
      secret: "s-deposit-reader",
    });
    // Signed by hand: the nonce must not run ahead of this file's exchange clock.
    const payload = `AUTH${clock * 1000}`;
    const keyed = await s.authSocket({
      apiKey: key.key,
      authNonce: clock * 1000,
      authPayload: payload,
      authSig: createHmac("sha384", "s-deposit-reader").update(payload).digest("hex"),
    });
    const old = await destination("bitcoin");
    const current = await destination("bitcoin", true);
    const before = balance("BTC");
    const mailsBefore = (await mailsTo(`http://${s.host}`, DEMO.email)).length;
    // Sent to the older address: it still credits the account.
    const sent = await sendDeposit(s.host, { method: "bitcoin", address: old.address, amount: "0.25" });
    expect(sent).toEqual({ status: 200, body: { id: expect.any(Number) as number, state: "PENDING" } });
    expect(current.address).not.toBe(old.address);
    let [row] = await movements("BTC");
    expect(row).toMatchObject({ status: "PENDING", amount: 0.25, confirmations: 0, confirmationsRequired: 3 });
    expect(row?.destinationAddress).toBe(old.address);
    expect(row?.txId).toMatch(/^[0-9a-f]{64}$/);
    blocks(1);
    [row] = await movements("BTC");
    expect(row).toMatchObject({ status: "CONFIRMING", confirmations: 1 });
    blocks(1);
    expect((await movements("BTC"))[0]).toMatchObject({ status: "CONFIRMING", confirmations: 2 });
    expect(balance("BTC")).toBe(before);
    blocks(1);
    [row] = await movements("BTC");
    expect(row).toMatchObject({ status: "COMPLETED", confirmations: 3 });
    expect(balance("BTC") - before).toBe(25_000_000);
    // Later ticks credit nothing more.
    blocks(5);
    expect(balance("BTC") - before).toBe(25_000_000);
    const ledger = venue.db
      .prepare("SELECT amount FROM ledgers WHERE user_id = ? AND description = ?")
      .all(venue.seeded, `Deposit (Bitcoin) #${row?.id}`);
    expect(ledger).toEqual([{ amount: 25_000_000 }]);
    await until(
      () => frames.some((f) => f[1] === "n" && (f[2] as unknown[])[1] === "deposit_complete"),
      "deposit_complete notification",
    );
    const kinds = frames.filter((f) => f[1] === "n").map((f) => (f[2] as unknown[])[1]);
    expect(kinds.filter((k) => k === "deposit_new")).toHaveLength(1);
    expect(kinds.filter((k) => k === "deposit_complete")).toHaveLength(1);
    await until(
      () => keyed.frames.some((f) => f[1] === "n" && (f[2] as unknown[])[1] === "deposit_complete"),
      "deposit_complete on the key's socket",
    );
    expect(keyed.frames.filter((f) => f[1] === "n").map((f) => (f[2] as unknown[])[1])).toEqual([
      "deposit_new",
      "deposit_complete",
    ]);
    keyed.ws.close();
    const completed = frames.find((f) => f[1] === "n" && (f[2] as unknown[])[1] === "deposit_complete");
    const data = (completed?.[2] as unknown[])[4];
    expect(movementRowCodec.decode(data)).toMatchObject({ ok: true, value: { status: "COMPLETED", amount: 0.25 } });
    expect(frames.some((f) => f[1] === "wu" && (f[2] as unknown[])[1] === "BTC")).toBe(true);
    const mails = (await mailsTo(`http://${s.host}`, DEMO.email)).slice(0, -mailsBefore || undefined);
    expect(mails.map((m) => m.subject)).toEqual(["Deposit completed", "Deposit arrived"]);
    ws.close();
  });

  it("sends no mail of a kind the account turned off", async () => {
    expect(
      (
        await s.rest("/v2/auth/w/settings/set", {
          settings: { email_deposit_arrived: false, email_deposit_completed: false },
        })
      ).status,
    ).toBe(200);
    const mailsBefore = (await mailsTo(`http://${s.host}`, DEMO.email)).length;
    const { address } = await destination("solana");
    expect((await sendDeposit(s.host, { method: "solana", address, amount: 2 })).body).toMatchObject({
      state: "PENDING",
    });
    blocks(1);
    expect((await movements("SOL"))[0]?.status).toBe("COMPLETED");
    expect(await mailsTo(`http://${s.host}`, DEMO.email)).toHaveLength(mailsBefore);
    await s.rest("/v2/auth/w/settings/set", {
      settings: { email_deposit_arrived: true, email_deposit_completed: true },
    });
  });

  it("to an address nobody holds is ignored, and one below the minimum is recorded and never credited", async () => {
    const count = (): unknown => venue.db.prepare("SELECT COUNT(*) AS n FROM movements").get();
    const n0 = count();
    const nobody = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
    expect(checkAddress("bitcoin", nobody).ok).toBe(true);
    expect((await sendDeposit(s.host, { method: "bitcoin", address: nobody, amount: 1 })).body).toEqual({
      id: null,
      state: "IGNORED",
      reason: "address: unknown",
    });
    // The pool address without a tag anybody holds names nobody either.
    expect(
      (await sendDeposit(s.host, { method: "ripple", address: XRP_POOL_ADDRESS, payment_id: "7", amount: 50 })).body,
    ).toMatchObject({ id: null, state: "IGNORED" });
    expect(count()).toEqual(n0);

    const before = balance("ETH");
    const { address } = await destination("ethereum");
    // The address in lower case is the same account (EIP-55 case is only a checksum).
    const small = await sendDeposit(s.host, { method: "ethereum", address: address.toLowerCase(), amount: 0.001 });
    expect(small.body).toMatchObject({ state: "BELOW MINIMUM" });
    blocks(20);
    expect((await movements("ETH"))[0]).toMatchObject({ status: "BELOW MINIMUM", amount: 0.001 });
    expect(balance("ETH")).toBe(before);
  });

  it("by XRP credits the holder of the destination tag, and a wire the holder of the reference", async () => {
    const xrp = await destination("ripple");
    const before = balance("XRP");
    await sendDeposit(s.host, { method: "ripple", address: xrp.pool, payment_id: xrp.address, amount: 25 });
    blocks(1);
    expect((await movements("XRP"))[0]).toMatchObject({ status: "COMPLETED", paymentId: xrp.address });
    expect(balance("XRP") - before).toBe(2_500_000_000);

    const wire = await destination("wireeur");
    const eur = balance("EUR");
    await sendDeposit(s.host, { method: "wireeur", reference: wire.address, amount: 1500 });
    blocks(1);
    expect((await movements("EUR"))[0]).toMatchObject({ status: "COMPLETED", paymentId: wire.address });
    expect(balance("EUR") - eur).toBe(150_000_000_000);
  });

  it("credits a transaction once: the same tx id sent again is refused, pending or credited", async () => {
    const xrp = await destination("ripple");
    const before = balance("XRP");
    const count = (): unknown => venue.db.prepare("SELECT COUNT(*) AS n FROM movements").get();
    const tx = "ab".repeat(32);
    const body = { method: "ripple", address: xrp.pool, payment_id: xrp.address, amount: 10, tx_id: tx };
    expect((await sendDeposit(s.host, body)).status).toBe(200);
    const n1 = count();
    const repeat = { status: 409, body: { id: null, state: "IGNORED", reason: "tx_id: already received" } };
    // While pending, and in the other letter case a chain explorer might print.
    expect(await sendDeposit(s.host, { ...body, tx_id: tx.toUpperCase() })).toEqual(repeat);
    blocks(1);
    expect(await sendDeposit(s.host, body)).toEqual(repeat);
    blocks(1);
    expect(count()).toEqual(n1);
    expect(balance("XRP") - before).toBe(1_000_000_000);
    // The index holds the rule for any writer, not only this call.
    expect(() =>
      venue.db
        .prepare(
          "INSERT INTO movements (user_id, currency, mts_started, mts_updated, status, amount, tx_id, method) VALUES (?, 'XRP', 0, 0, 'PENDING', 1, ?, 'ripple')",
        )
        .run(venue.seeded ?? 0, tx),
    ).toThrow(/UNIQUE/);
  });

  it("refuses a malformed amount or method and records nothing", async () => {
    const { address } = await destination("bitcoin");
    for (const body of [
      { method: "bitcoin", address, amount: "-1" },
      { method: "bitcoin", address, amount: "1e3" },
      { method: "bitcoin", address, amount: 0.000000001 },
      { method: "nope", address, amount: 1 },
    ])
      expect((await sendDeposit(s.host, body)).status, JSON.stringify(body)).toBe(400);
    expect(depositMethod("BITCOIN")?.method).toBe("bitcoin");
  });
});

describe("a pending deposit across a crash", () => {
  it("resumes its confirmations after the exchange is killed and restarted, and is credited once", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "deposits-")), "exchange.db");
    const env = { DEPOSIT_BLOCK_MS: "400", SIM_STEP_MS: "1000" };
    let proc = await startExchangeProcess(db, env);
    const host = `127.0.0.1:${proc.port + 1}`;
    const post = async (path: string, body: unknown, token?: string): Promise<unknown> => {
      const r = await fetch(`http://${host}${path}`, {
        method: "POST",
        headers: token ? { "bfx-token": token } : DEV,
        body: JSON.stringify(body),
      });
      return r.json();
    };
    const login = async (): Promise<string> =>
      ((await post("/v2/login", { login: DEMO.username, password: DEMO.password })) as [string])[0];
    let token = await login();
    const n = notificationCodec.decode(
      await post("/v2/auth/w/deposit/address", { wallet: "exchange", method: "litecoin" }, token),
    );
    const addr = n.ok ? depositAddressCodec.decode(n.value.data) : null;
    const address = addr?.ok ? addr.value.address : "";
    expect(checkAddress("litecoin", address).ok).toBe(true);
    const sent = (await post("/dev/deposit", { method: "litecoin", address, amount: 3 })) as { id: number };
    const row = async (): Promise<MovementRow | undefined> => {
      const rows = movementRowCodec.decodeList(await post("/v2/auth/r/movements/LTC/hist", {}, token));
      return rows.ok ? rows.value.find((r) => r.id === sent.id) : undefined;
    };
    // Killed mid-confirmation: some confirmations of the six, not all.
    const t0 = Date.now();
    while (((await row())?.confirmations ?? 0) < 2) {
      if (Date.now() - t0 > 10_000) throw new Error("no confirmations");
      await wait(50);
    }
    proc.child.kill("SIGKILL");
    await new Promise((r) => proc.child.once("exit", r));
    proc = await startExchangeProcess(db, env, proc.port);
    token = await login();
    const t1 = Date.now();
    while ((await row())?.status !== "COMPLETED") {
      if (Date.now() - t1 > 10_000) throw new Error("not credited after the restart");
      await wait(100);
    }
    const ledgers = (await post("/v2/auth/r/ledgers/LTC/hist", {}, token)) as unknown[][];
    expect(ledgers.filter((l) => l[8] === `Deposit (Litecoin) #${sent.id}`).map((l) => l[5])).toEqual([3]);
    proc.child.kill("SIGKILL");
  }, 60_000);
});
