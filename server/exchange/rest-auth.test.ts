/**
 * Authenticated REST over real HTTP: token and API-key signatures (v2 over the exact body text, and
 * the v1 payload form), replayed nonces, order submit/cancel/history, user info, and 429 limits.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authTradeCodec,
  ledgerCodec,
  movementCodec,
  notificationCodec,
  orderCodec,
  userInfoCodec,
  walletCodec,
} from "../../src/protocol/index.ts";
import { listenApi } from "../test-support/api.ts";
import type { ApiServer } from "../api-server.ts";
import { DEMO } from "../store/seed.ts";
import { openVenue } from "./venue.ts";

const { exchange, accounts, gateway } = openVenue({
  dbPath: ":memory:",
  seed: 5,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});

let api: ApiServer;
let base = "";
let nonce = Date.now() * 1000;
beforeAll(async () => {
  const started = await listenApi({ exchange, account: gateway, limits: { public: 1000, auth: 1000, login: 3 } });
  api = started.api;
  base = `http://${started.host}`;
});
afterAll(() => api.close());

async function signed(
  path: string,
  body: unknown,
  secret: string = DEMO.apiSecret,
  n = ++nonce,
): Promise<[number, unknown]> {
  const raw = JSON.stringify(body);
  const sig = createHmac("sha384", secret).update(`/api${path}${n}${raw}`).digest("hex");
  const res = await fetch(base + path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "bfx-nonce": String(n),
      "bfx-apikey": DEMO.apiKey,
      "bfx-signature": sig,
    },
    body: raw,
  });
  return [res.status, await res.json()];
}

describe("authenticated REST", () => {
  it("reads the account with an API-key signature over the exact body", async () => {
    const [status, wallets] = await signed("/v2/auth/r/wallets", {});
    expect(status).toBe(200);
    expect(walletCodec.decodeList(wallets).ok).toBe(true);
    const [, info] = await signed("/v2/auth/r/info/user", {});
    expect(userInfoCodec.decode(info)).toMatchObject({ ok: true, value: { username: "demo", email: DEMO.email } });
  });

  it("refuses bad signatures and replayed nonces with the real error shapes", async () => {
    expect(await signed("/v2/auth/r/wallets", {}, "wrong")).toEqual([500, ["error", 10100, "apikey: invalid"]]);
    const n = ++nonce;
    expect((await signed("/v2/auth/r/wallets", {}, DEMO.apiSecret, n))[0]).toBe(200);
    expect(await signed("/v2/auth/r/wallets", {}, DEMO.apiSecret, n)).toEqual([500, ["error", 10114, "nonce: small"]]);
    const res = await fetch(`${base}/v2/auth/r/wallets`, { method: "POST", body: "{}" });
    expect(res.status).toBe(500);
  });

  it("accepts the v1 payload signature", async () => {
    const payload = Buffer.from(JSON.stringify({ request: "/v2/auth/r/wallets", nonce: String(++nonce) })).toString(
      "base64",
    );
    const res = await fetch(`${base}/v2/auth/r/wallets`, {
      method: "POST",
      headers: {
        "x-bfx-apikey": DEMO.apiKey,
        "x-bfx-payload": payload,
        "x-bfx-signature": createHmac("sha384", DEMO.apiSecret).update(payload).digest("hex"),
      },
    });
    expect(res.status).toBe(200);
  });

  it("submits, lists, cancels and reports orders, trades and ledgers with a token", async () => {
    const login = await fetch(`${base}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
    });
    const [token] = (await login.json()) as [string];
    const post = async (path: string, body: unknown): Promise<unknown> =>
      (
        await fetch(base + path, { method: "POST", headers: { "bfx-token": token }, body: JSON.stringify(body) })
      ).json();
    const bid = exchange.markets.get("tBTCUSD")?.engine.bestBid() as number;
    const submitted = await post("/v2/auth/w/order/submit", {
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: "0.1",
      price: String(Number((bid * 0.8).toPrecision(5))),
    });
    const n = notificationCodec.decode(submitted);
    expect(n.ok && n.value).toMatchObject({ type: "on-req", level: "success" });
    const orders = orderCodec.decodeList(await post("/v2/auth/r/orders", {}));
    expect(orders.ok && orders.value).toHaveLength(1);
    const id = orders.ok ? orders.value[0]?.id : 0;
    expect(notificationCodec.decode(await post("/v2/auth/w/order/cancel", { id })).ok).toBe(true);
    const hist = orderCodec.decodeList(await post("/v2/auth/r/orders/hist", {}));
    expect(hist.ok && hist.value[0]?.status).toBe("CANCELED");
    await post("/v2/auth/w/order/submit", { type: "EXCHANGE MARKET", symbol: "tBTCUSD", amount: "0.05" });
    const trades = authTradeCodec.decodeList(await post("/v2/auth/r/trades/hist", {}));
    expect(trades.ok && trades.value.length).toBeGreaterThan(0);
    expect(trades.ok && trades.value[0]?.fee).toBeLessThan(0);
    expect(ledgerCodec.decodeList(await post("/v2/auth/r/ledgers/hist", {})).ok).toBe(true);
    const bad = await post("/v2/auth/w/order/submit", {
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: "2e9",
      price: "1",
    });
    expect(bad).toEqual(["error", 10001, "Invalid order: amount"]);
  });

  it("updates an order over REST and refuses an update of an unknown one", async () => {
    const bid = exchange.markets.get("tBTCUSD")?.engine.bestBid() as number;
    const price = Number((bid * 0.8).toPrecision(5));
    const [, on] = await signed("/v2/auth/w/order/submit", {
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: "0.01",
      price: String(price),
    });
    const id = ((on as unknown[])[4] as unknown[][])[0]?.[0] as number;
    const [status, ou] = await signed("/v2/auth/w/order/update", { id, price: String(price - 100) });
    expect(status).toBe(200);
    const n = notificationCodec.decode(ou);
    expect(n).toMatchObject({ ok: true, value: { type: "ou-req", status: "SUCCESS" } });
    expect(orderCodec.decode((ou as unknown[])[4])).toMatchObject({ ok: true, value: { id, price: price - 100 } });
    expect(await signed("/v2/auth/w/order/update", { id: 1, price: 1 })).toEqual([
      500,
      ["error", 10001, "Order not found."],
    ]);
    await signed("/v2/auth/w/order/cancel", { id });
  });

  it("moves funds between wallets, gives deposit addresses, withdraws and lists movements", async () => {
    const balance = async (type: string, ccy: string): Promise<number> => {
      const [, rows] = await signed("/v2/auth/r/wallets", {});
      const w = (rows as unknown[][]).find((r) => r[0] === type && r[1] === ccy);
      return (w?.[2] as number | undefined) ?? 0;
    };
    const usd = await balance("exchange", "USD");
    const [status, tf] = await signed("/v2/auth/w/transfer", {
      from: "exchange",
      to: "funding",
      currency: "USD",
      amount: "250.5",
    });
    expect(status).toBe(200);
    expect(notificationCodec.decode(tf)).toMatchObject({ ok: true, value: { type: "acc_tf", status: "SUCCESS" } });
    expect(await balance("exchange", "USD")).toBeCloseTo(usd - 250.5, 8);
    expect(await balance("funding", "USD")).toBeCloseTo(250.5, 8);
    // Refusals name the field and move nothing.
    expect(
      await signed("/v2/auth/w/transfer", { from: "exchange", to: "funding", currency: "USD", amount: 1e9 }),
    ).toEqual([500, ["error", 10001, "amount: insufficient balance in the source wallet"]]);
    expect(
      (await signed("/v2/auth/w/transfer", { from: "exchange", to: "exchange", currency: "USD", amount: 1 }))[1],
    ).toEqual(["error", 10001, "to: must differ from the source wallet"]);
    expect(
      (await signed("/v2/auth/w/transfer", { from: "exchange", to: "funding", currency: "USD", amount: -5 }))[1],
    ).toEqual(["error", 10001, "amount: invalid"]);
    expect(await balance("funding", "USD")).toBeCloseTo(250.5, 8);

    const [, dep] = await signed("/v2/auth/w/deposit/address", { wallet: "exchange", method: "bitcoin", op_renew: 0 });
    const addr = (dep as unknown[][])[4]?.[4] as string;
    expect(addr).toMatch(/^bc1q/);
    const [, again] = await signed("/v2/auth/w/deposit/address", {
      wallet: "exchange",
      method: "bitcoin",
      op_renew: 0,
    });
    expect((again as unknown[][])[4]?.[4]).toBe(addr);
    const [, renewed] = await signed("/v2/auth/w/deposit/address", {
      wallet: "exchange",
      method: "bitcoin",
      op_renew: 1,
    });
    expect((renewed as unknown[][])[4]?.[4]).not.toBe(addr);

    const btc = await balance("exchange", "BTC");
    const target = "0x52908400098527886E0F7030069857D2E4169EE7";
    expect(
      (
        await signed("/v2/auth/w/withdraw", { wallet: "exchange", method: "bitcoin", amount: "0.1", address: target })
      )[1],
    ).toEqual(["error", 10001, "address: invalid"]);
    const [, wd] = await signed("/v2/auth/w/withdraw", {
      wallet: "exchange",
      method: "bitcoin",
      amount: "0.1",
      address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      // Worth more than the travel rule's threshold: who receives it and where it goes.
      travel_rule: { beneficiary: { type: "self" }, destination: { type: "self_hosted", attested: true } },
    });
    expect(notificationCodec.decode(wd)).toMatchObject({ ok: true, value: { type: "acc_wd-req", status: "SUCCESS" } });
    // Debited when requested; the movement waits for the mailed confirmation (docs/product-rules.md#withdrawals).
    expect(await balance("exchange", "BTC")).toBeCloseTo(btc - 0.1, 8);
    const [, moves] = await signed("/v2/auth/r/movements/BTC/hist", {});
    const decoded = movementCodec.decodeList(moves);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) {
      expect(decoded.value[0]).toMatchObject({
        currency: "BTC",
        status: "UNCONFIRMED",
        amount: -0.0996,
        fees: -0.0004,
      });
      // The demo account's opening balance is a deposit in the same history.
      expect(decoded.value.at(-1)).toMatchObject({ currency: "BTC", amount: 2 });
    }
  });

  it("generates an API key after a mailed code, limits it to its capabilities, updates and revokes it", async () => {
    const login = await fetch(`${base}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
    });
    const [token] = (await login.json()) as [string];
    const post = async (path: string, body: unknown): Promise<[number, unknown]> => {
      const res = await fetch(base + path, {
        method: "POST",
        headers: { "bfx-token": token },
        body: JSON.stringify(body),
      });
      return [res.status, await res.json()];
    };
    const [, pending] = await post("/v2/auth/w/api/key/generate", {
      label: "read-only bot",
      permissions: { orders: { read: 1, write: 0 }, wallets: { read: 1, write: 0 } },
    });
    expect(pending).toMatchObject({ method: "email" });
    const id = (pending as { id: string }).id;
    expect((await post("/v2/auth/w/api/key/verify", { id, code: "000000x" }))[1]).toEqual([
      "error",
      10001,
      "code: invalid",
    ]);
    const mail = ((await (await fetch(`${base}/dev/outbox`)).json()) as { body: string }[])[0]?.body ?? "";
    const code = /(\d{6})/.exec(mail)?.[1];
    const [, created] = await post("/v2/auth/w/api/key/verify", { id, code });
    const [key, secret] = created as [string, string];
    expect(key).toMatch(/^[0-9a-f]{40}$/);

    let n = Date.now() * 1000;
    const withKey = async (path: string, body: unknown): Promise<unknown> => {
      const raw = JSON.stringify(body);
      const nonce = String(++n);
      const sig = createHmac("sha384", secret).update(`/api${path}${nonce}${raw}`).digest("hex");
      const res = await fetch(base + path, {
        method: "POST",
        headers: { "bfx-nonce": nonce, "bfx-apikey": key, "bfx-signature": sig },
        body: raw,
      });
      return res.json();
    };
    expect(Array.isArray(await withKey("/v2/auth/r/orders", {}))).toBe(true);
    expect(
      await withKey("/v2/auth/w/order/submit", {
        type: "EXCHANGE LIMIT",
        symbol: "tBTCUSD",
        amount: "0.001",
        price: "1",
      }),
    ).toEqual(["error", 10100, "apikey: permission denied for this call"]);
    expect(await withKey("/v2/auth/w/api/key/revoke", { all: 1 })).toEqual([
      "error",
      10100,
      "apikey: permission denied for this call",
    ]);
    const perms = (await withKey("/v2/auth/r/permissions", {})) as [string, number, number][];
    expect(perms.find((p) => p[0] === "orders")).toEqual(["orders", 1, 0]);
    expect(perms.find((p) => p[0] === "withdraw")).toEqual(["withdraw", 0, 0]);

    const [, list] = await post("/v2/auth/r/api/keys", {});
    expect((list as unknown[][]).map((k) => k[1])).toEqual(["demo", "read-only bot"]);
    await post("/v2/auth/w/api/key/update", { key, permissions: [["orders", 1, 1]] });
    const order = (await withKey("/v2/auth/w/order/submit", {
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: "0.001",
      price: "1",
    })) as unknown[];
    expect(order[6]).toBe("SUCCESS");
    await withKey("/v2/auth/w/order/cancel", { id: ((order[4] as unknown[][])[0] as unknown[])[0] });
    expect((await post("/v2/auth/w/api/key/revoke", { key }))[1]).toEqual([1]);
    expect(await withKey("/v2/auth/r/orders", {})).toEqual(["error", 10100, "apikey: invalid"]);
  });

  it("keeps a session alive by renewing its token, and refuses an unknown one", async () => {
    const token = accounts.issueToken(1, Date.now(), 1000);
    const res = await fetch(`${base}/api/session/keep-alive`, { headers: { cookie: `other=1; bfx_token=${token}` } });
    expect(res.status).toBe(200);
    const { expires } = (await res.json()) as { expires: number };
    expect(expires).toBeGreaterThan(Date.now() + 60_000);
    expect(accounts.checkToken(token, Date.now() + 60_000).ok).toBe(true);
    const bad = await fetch(`${base}/api/session/keep-alive`, { headers: { "bfx-token": "nope" } });
    expect([bad.status, await bad.json()]).toEqual([401, ["error", 10100, "token: invalid"]]);
  });

  it("answers 429 beyond the rate limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await fetch(`${base}/v2/login`, { method: "POST", body: JSON.stringify({ login: "x", password: "y" }) }))
          .status,
      );
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});
