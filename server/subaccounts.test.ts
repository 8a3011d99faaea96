/**
 * Sub-accounts over real HTTP, WebSocket and SQLite (server/subaccounts.ts,
 * docs/product-rules.md#sub-accounts): creation with its checks, the list without group masters,
 * balances, acting in a context minted with the master's session, the read-only context refusing
 * every write, transfers between a master and its sub-accounts (both ledgers, one transaction),
 * and a context that dies with the master's session.
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  ERROR_CODES,
  READ_ONLY_CONTEXT_MESSAGE,
  CONTEXT_SWITCH_DISABLED_MESSAGE,
  ledgerCodec,
  subaccountBalanceCodec,
  subaccountRowCodec,
  userInfoCodec,
  walletCodec,
  MAX_SUBACCOUNTS,
} from "../src/protocol/index.ts";
import { openVenue } from "./exchange/venue.ts";
import { DEFAULT_LIMITS } from "./rate-limit.ts";
import { testApi, until, wait } from "./test-support/session.ts";
import { messageText } from "./ws-text.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 11, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });

const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  limits: { ...DEFAULT_LIMITS, login: 1000, auth: 100_000 },
});

const { post } = api;

let n = 0;
/** A verified master with 1000 USD and 1 BTC in its exchange wallet, signed in: its id and session token. */
async function master(): Promise<{ id: number; token: string; login: string }> {
  n += 1;
  const login = `master${n}`;
  const id = venue.accounts.createUser(`${login}@example.com`, login, "long-enough-pw", Date.now(), true);
  venue.funds.deposit(id, "USD", 1000, "Deposit");
  venue.funds.deposit(id, "BTC", 1, "Deposit");
  const [status, body] = await post("/v2/login", { login, password: "long-enough-pw" });
  expect(status).toBe(200);
  return { id, login, token: (body as string[])[0] as string };
}

async function createSub(token: string, username: string, o: { type?: string; readOnly?: number } = {}) {
  const [status, body] = await post(
    "/v2/auth/w/subaccounts/create",
    { username, type: o.type ?? "trading", readOnly: o.readOnly ?? 0 },
    token,
  );
  expect(status, JSON.stringify(body)).toBe(200);
  const row = subaccountRowCodec.decode(body);
  if (!row.ok) throw new Error("row undecodable");
  return row.value;
}

async function context(token: string, id: number, readOnly = false): Promise<string> {
  const [status, body] = await post("/v2/auth/w/subaccounts/context", { id, readOnly: readOnly ? 1 : 0 }, token);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body as string[])[0] as string;
}

async function wallets(token: string): Promise<Map<string, number>> {
  const [status, body] = await post("/v2/auth/r/wallets", {}, token);
  expect(status).toBe(200);
  const out = new Map<string, number>();
  for (const raw of body as unknown[]) {
    const w = walletCodec.decode(raw);
    if (w.ok) out.set(`${w.value.type}:${w.value.currency}`, w.value.balance);
  }
  return out;
}

async function userInfo(token: string) {
  const [status, body] = await post("/v2/auth/r/info/user", {}, token);
  expect(status).toBe(200);
  const d = userInfoCodec.decode(body);
  if (!d.ok) throw new Error("user info undecodable");
  return d.value;
}

const userCount = (): number => (venue.db.prepare("SELECT COUNT(*) AS c FROM users").get() as { c: number }).c;

describe("creating sub-accounts", () => {
  it("checks every field on the server and writes nothing for bad input", async () => {
    const m = await master();
    const before = userCount();
    const bad: [Record<string, unknown>, string][] = [
      [{ username: "x", type: "trading" }, "username: invalid"],
      [{ username: "has space", type: "trading" }, "username: invalid"],
      [{ username: "okname", type: "spaceship" }, "type: invalid"],
      [{ username: "okname", type: "trading", readOnly: "yes" }, "readOnly: invalid"],
      [{ type: "trading" }, "username: invalid"],
    ];
    for (const [body, msg] of bad) {
      const [status, reply] = await post("/v2/auth/w/subaccounts/create", body, m.token);
      expect(status).toBe(400);
      expect(reply).toEqual(["error", ERROR_CODES.PARAMS, msg]);
    }
    const notJson = (await (
      await fetch(`${api.base}/v2/auth/w/subaccounts/create`, {
        method: "POST",
        headers: { "bfx-token": m.token },
        body: "{not json",
      })
    ).json()) as unknown;
    expect(notJson).toEqual(["error", ERROR_CODES.PARAMS, "body: invalid"]);
    expect(userCount()).toBe(before);
  });

  it("creates a sub-account that inherits the master's verification, and refuses a taken name", async () => {
    const m = await master();
    const row = await createSub(m.token, `desk${m.id}`, { type: "funding" });
    expect(row).toMatchObject({ username: `desk${m.id}`, type: "funding", readOnly: false, masterId: m.id });
    expect(subaccountRowCodec.encode(row)).toHaveLength(subaccountRowCodec.length);
    const [status, reply] = await post(
      "/v2/auth/w/subaccounts/create",
      { username: `DESK${m.id}`, type: "trading" },
      m.token,
    );
    expect(status).toBe(500);
    expect(reply).toEqual(["error", ERROR_CODES.GENERIC, "username: taken"]);
    const info = await userInfo(m.token);
    expect(info).toMatchObject({ isGroupMaster: true, groupId: m.id, groupAllowDisableContextSwitch: true });
    const sub = await userInfo(await context(m.token, row.id));
    expect(sub).toMatchObject({
      id: row.id,
      username: `desk${m.id}`,
      subaccountType: "funding",
      masterAccountId: m.id,
      groupId: m.id,
      isGroupMaster: false,
      inheritMasterAccountVerification: true,
      verificationLevel: 2,
    });
    // Nobody signs in as a sub-account: it has no password anyone knows.
    const [loginStatus] = await post("/v2/login", { login: `desk${m.id}`, password: "long-enough-pw" });
    expect(loginStatus).not.toBe(200);
  });

  it("holds at most MAX_SUBACCOUNTS per master", { timeout: 60_000 }, async () => {
    const m = await master();
    for (let i = 0; i < MAX_SUBACCOUNTS; i++) await createSub(m.token, `lim${m.id}x${i}`);
    const before = userCount();
    const [, reply] = await post(
      "/v2/auth/w/subaccounts/create",
      { username: `lim${m.id}over`, type: "trading" },
      m.token,
    );
    expect(reply).toEqual(["error", ERROR_CODES.GENERIC, "account: limit"]);
    expect(userCount()).toBe(before);
  });
});

describe("listing", () => {
  it(
    "lists the master's sub-accounts, never a group master, and nothing to a sub-account",
    { timeout: 60_000 },
    async () => {
      const m = await master();
      const a = await createSub(m.token, `lista${m.id}`);
      const b = await createSub(m.token, `listb${m.id}`, { readOnly: 1 });
      // A sub-account made a group master behind the API's back (an older database, a support
      // action): the list leaves it out, as it leaves the caller out.
      const c = await createSub(m.token, `listc${m.id}`);
      const stray = venue.accounts.createUser(`stray${m.id}@example.com`, `stray${m.id}`, "long-enough-pw", 0, true);
      venue.db
        .prepare(
          "INSERT INTO subaccounts (user_id, master_id, type, read_only, created_at) VALUES (?, ?, 'trading', 0, 0)",
        )
        .run(stray, c.id);
      const [status, body] = await post("/v2/auth/r/subaccounts", {}, m.token);
      expect(status).toBe(200);
      const rows = subaccountRowCodec.decodeList(body);
      if (!rows.ok) throw new Error("list undecodable");
      expect(rows.value.map((r) => [r.id, r.readOnly])).toEqual([
        [a.id, false],
        [b.id, true],
      ]);
      const [, fromSub] = await post("/v2/auth/r/subaccounts", {}, await context(m.token, a.id));
      expect(fromSub).toEqual([]);
      // A sub-account opens none of its own.
      const [, refused] = await post(
        "/v2/auth/w/subaccounts/create",
        { username: `nested${m.id}`, type: "trading" },
        await context(m.token, a.id),
      );
      expect(refused).toEqual(["error", ERROR_CODES.GENERIC, "account: not-allowed"]);
    },
  );

  it("answers the group's balances, filtered by ccy and type; a sub-account sees only its own", async () => {
    const m = await master();
    const a = await createSub(m.token, `bal${m.id}`);
    await post(
      "/v2/auth/w/transfer",
      { from: "exchange", to: "exchange", currency: "USD", amount: "250", user_id_dst: a.id },
      m.token,
    );
    const [, all] = await post("/v2/auth/r/subaccounts/balances", {}, m.token);
    const rows = subaccountBalanceCodec.decodeList(all);
    if (!rows.ok) throw new Error("balances undecodable");
    expect(rows.value).toContainEqual({
      userId: m.id,
      type: "exchange",
      currency: "USD",
      balance: 750,
      available: 750,
    });
    expect(rows.value).toContainEqual({
      userId: a.id,
      type: "exchange",
      currency: "USD",
      balance: 250,
      available: 250,
    });
    expect(rows.value).toContainEqual({ userId: m.id, type: "exchange", currency: "BTC", balance: 1, available: 1 });
    const [, usd] = await post("/v2/auth/r/subaccounts/balances", { ccy: "USD", type: "exchange" }, m.token);
    expect((usd as unknown[][]).every((r) => r[2] === "USD" && r[1] === "exchange")).toBe(true);
    expect(usd).toHaveLength(2);
    const [, none] = await post("/v2/auth/r/subaccounts/balances", { type: "funding" }, m.token);
    expect(none).toEqual([]);
    expect(await post("/v2/auth/r/subaccounts/balances", { ccy: "usd!" }, m.token)).toEqual([
      400,
      ["error", ERROR_CODES.PARAMS, "currency: invalid"],
    ]);
    expect(await post("/v2/auth/r/subaccounts/balances", { type: "pocket" }, m.token)).toEqual([
      400,
      ["error", ERROR_CODES.PARAMS, "wallet: invalid"],
    ]);
    const [, own] = await post("/v2/auth/r/subaccounts/balances", {}, await context(m.token, a.id));
    expect(own).toEqual([
      subaccountBalanceCodec.encode({ userId: a.id, type: "exchange", currency: "USD", balance: 250, available: 250 }),
    ]);
  });
});

describe("acting in a context", () => {
  it("a sub-account sees and acts on its own data only, never its master's or a sibling's", async () => {
    const m = await master();
    const a = await createSub(m.token, `ctxa${m.id}`);
    const b = await createSub(m.token, `ctxb${m.id}`);
    await post(
      "/v2/auth/w/transfer",
      { from: "exchange", to: "exchange", currency: "USD", amount: "100", user_id_dst: a.id },
      m.token,
    );
    await post(
      "/v2/auth/w/transfer",
      { from: "exchange", to: "exchange", currency: "USD", amount: "40", user_id_dst: b.id },
      m.token,
    );
    const [, placed] = await post(
      "/v2/auth/w/order/submit",
      { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: "1000" },
      m.token,
    );
    const masterOrder = ((placed as unknown[])[4] as unknown[][])[0]?.[0] as number;
    expect(typeof masterOrder).toBe("number");
    const ta = await context(m.token, a.id);
    expect(await wallets(ta)).toEqual(new Map([["exchange:USD", 100]]));
    const [, orders] = await post("/v2/auth/r/orders", {}, ta);
    expect(orders).toEqual([]);
    const [, ledgers] = await post("/v2/auth/r/ledgers/hist", {}, ta);
    expect((ledgers as unknown[]).length).toBe(1);
    // The master's order cannot be cancelled from the sub-account.
    const [cancelStatus] = await post("/v2/auth/w/order/cancel", { id: masterOrder }, ta);
    expect(cancelStatus).not.toBe(200);
    const [, still] = await post("/v2/auth/r/orders", {}, m.token);
    expect((still as unknown[][]).map((o) => o[0])).toContain(masterOrder);
    // A transfer to a sibling is refused, and moves nothing.
    expect(
      await post(
        "/v2/auth/w/transfer",
        { from: "exchange", to: "exchange", currency: "USD", amount: "1", user_id_dst: b.id },
        ta,
      ),
    ).toEqual([500, ["error", ERROR_CODES.GENERIC, "account: not-allowed"]]);
    // So is a transfer from a stranger's master to a sub-account that is not its own.
    const other = await master();
    expect(
      await post(
        "/v2/auth/w/transfer",
        { from: "exchange", to: "exchange", currency: "USD", amount: "1", user_id_dst: a.id },
        other.token,
      ),
    ).toEqual([500, ["error", ERROR_CODES.GENERIC, "account: not-allowed"]]);
    // And another master cannot switch into it.
    expect(await post("/v2/auth/w/subaccounts/context", { id: a.id }, other.token)).toEqual([
      500,
      ["error", ERROR_CODES.GENERIC, "account: invalid"],
    ]);
    expect(await wallets(ta)).toEqual(new Map([["exchange:USD", 100]]));
    const tb = await context(m.token, b.id);
    expect(await wallets(tb)).toEqual(new Map([["exchange:USD", 40]]));
    // Switching back gives a token of the master's own session.
    const back = await context(tb, m.id);
    expect((await userInfo(back)).id).toBe(m.id);
    // The context switched away from ended.
    expect((await post("/v2/auth/r/wallets", {}, tb))[1]).toEqual(["error", ERROR_CODES.AUTH_FAILED, "token: invalid"]);
  });

  it("only the master's session token mints a context (not a key, not a limited token)", async () => {
    const m = await master();
    const a = await createSub(m.token, `mint${m.id}`);
    const [, limited] = await post(
      "/v2/auth/w/token",
      { scope: "api", caps: ["a", "o", "w"], writePermission: true },
      m.token,
    );
    expect(await post("/v2/auth/w/subaccounts/context", { id: a.id }, (limited as string[])[0])).toEqual([
      500,
      ["error", ERROR_CODES.GENERIC, "account: not-allowed"],
    ]);
    expect(await post("/v2/auth/w/subaccounts/context", { id: "1" }, m.token)).toEqual([
      400,
      ["error", ERROR_CODES.PARAMS, "account: invalid"],
    ]);
  });

  it("a read-only context refuses every write call with a clear error and changes nothing", async () => {
    const m = await master();
    const a = await createSub(m.token, `ro${m.id}`);
    await post(
      "/v2/auth/w/transfer",
      { from: "exchange", to: "exchange", currency: "USD", amount: "100", user_id_dst: a.id },
      m.token,
    );
    const ro = await context(m.token, a.id, true);
    const before = await wallets(ro);
    const ledgersBefore = venue.db.prepare("SELECT COUNT(*) AS c FROM ledgers").get();
    const writes: [string, Record<string, unknown>][] = [
      ["/v2/auth/w/order/submit", { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: "1000" }],
      ["/v2/auth/w/order/cancel", { id: 1 }],
      ["/v2/auth/w/order/cancel/multi", { all: 1 }],
      ["/v2/auth/w/transfer", { from: "exchange", to: "funding", currency: "USD", amount: "1" }],
      ["/v2/auth/w/transfer", { from: "exchange", to: "exchange", currency: "USD", amount: "1", user_id_dst: m.id }],
      [
        "/v2/auth/w/withdraw",
        {
          wallet: "exchange",
          method: "bitcoin",
          amount: "0.01",
          address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        },
      ],
      ["/v2/auth/w/deposit/address", { wallet: "exchange", method: "bitcoin" }],
      ["/v2/auth/w/funding/offer/submit", { type: "LIMIT", symbol: "fUSD", amount: "50", rate: "0.0002", period: 2 }],
      ["/v2/auth/w/settings/set", { settings: { "api:bfx-theme": "light" } }],
      ["/v2/auth/w/api/key/generate", { label: "bot", permissions: "o:1" }],
      ["/v2/auth/w/subaccounts/create", { username: `ro${m.id}sub`, type: "trading" }],
      ["/v2/auth/w/subaccounts/settings", { disableContextSwitch: 1 }],
      ["/v2/auth/w/position/claim", { id: 1 }],
      ["/v1/account_us_resident", { us_resident: 0 }],
    ];
    for (const [path, body] of writes)
      expect(await post(path, body, ro), path).toEqual([
        500,
        ["error", ERROR_CODES.GENERIC, READ_ONLY_CONTEXT_MESSAGE],
      ]);
    expect(await wallets(ro)).toEqual(before);
    expect(venue.db.prepare("SELECT COUNT(*) AS c FROM ledgers").get()).toEqual(ledgersBefore);
    // Reads work, renewal works and stays read-only.
    const [, renewed] = await post(
      "/v2/auth/w/token",
      { scope: "api", writePermission: true, caps: ["o", "f", "s", "w"] },
      ro,
    );
    const ro2 = (renewed as string[])[0] as string;
    expect((await userInfo(ro2)).id).toBe(a.id);
    expect(await post("/v2/auth/w/order/submit", writes[0]?.[1], ro2)).toEqual([
      500,
      ["error", ERROR_CODES.GENERIC, READ_ONLY_CONTEXT_MESSAGE],
    ]);
    // The socket refuses its order inputs as well.
    const ws = new WebSocket(`ws://${api.host}/ws/2`);
    const frames: unknown[][] = [];
    ws.on("message", (d) => {
      const f = JSON.parse(messageText(d)) as unknown;
      if (Array.isArray(f)) frames.push(f);
    });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", token: ro2 }));
    await wait(150);
    ws.send(
      JSON.stringify([0, "on", null, { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: "1000" }]),
    );
    await until(() => frames.some((f) => f[1] === "n"), "the refusal");
    const refusal = frames.find((f) => f[1] === "n")?.[2] as unknown[];
    expect(refusal[1]).toBe("on-req");
    expect(refusal[6]).toBe("ERROR");
    expect(frames.some((f) => f[1] === "on")).toBe(false);
    ws.close();
    // A sub-account flagged read-only is read-only whatever the switch asks.
    const flagged = await createSub(m.token, `flag${m.id}`, { readOnly: 1 });
    const t = await context(m.token, flagged.id, false);
    expect((await post("/v2/auth/w/settings/set", { settings: {} }, t))[1]).toEqual([
      "error",
      ERROR_CODES.GENERIC,
      READ_ONLY_CONTEXT_MESSAGE,
    ]);
  });

  it("the group can turn context switching off; switching back always works", async () => {
    const m = await master();
    const a = await createSub(m.token, `sw${m.id}`);
    const inside = await context(m.token, a.id);
    expect(await post("/v2/auth/w/subaccounts/settings", { disableContextSwitch: 1 }, m.token)).toEqual([200, [1]]);
    expect((await userInfo(m.token)).groupDisableContextSwitch).toBe(true);
    expect((await userInfo(inside)).groupDisableContextSwitch).toBe(true);
    expect(await post("/v2/auth/w/subaccounts/context", { id: a.id }, m.token)).toEqual([
      500,
      ["error", ERROR_CODES.GENERIC, CONTEXT_SWITCH_DISABLED_MESSAGE],
    ]);
    expect((await userInfo(await context(inside, m.id))).id).toBe(m.id);
    expect(await post("/v2/auth/w/subaccounts/settings", { disableContextSwitch: "no" }, m.token)).toEqual([
      400,
      ["error", ERROR_CODES.PARAMS, "account: invalid"],
    ]);
  });
});

describe("transfers between a master and its sub-accounts", () => {
  it("moves the balance and writes a ledger row on both sides; by user id or e-mail address", async () => {
    const m = await master();
    const a = await createSub(m.token, `tf${m.id}`);
    const [status, reply] = await post(
      "/v2/auth/w/transfer",
      { from: "exchange", to: "funding", currency: "USD", amount: "300.5", user_id_dst: a.id },
      m.token,
    );
    expect(status, JSON.stringify(reply)).toBe(200);
    expect((reply as unknown[])[6]).toBe("SUCCESS");
    const ta = await context(m.token, a.id);
    expect(await wallets(ta)).toEqual(new Map([["funding:USD", 300.5]]));
    expect((await wallets(m.token)).get("exchange:USD")).toBe(699.5);
    const [, subLedger] = await post("/v2/auth/r/ledgers/USD/hist", {}, ta);
    const [, masterLedger] = await post("/v2/auth/r/ledgers/USD/hist", {}, m.token);
    const sub0 = ledgerCodec.decode((subLedger as unknown[])[0]);
    const master0 = ledgerCodec.decode((masterLedger as unknown[])[0]);
    if (!sub0.ok || !master0.ok) throw new Error("ledger undecodable");
    expect([sub0.value.amount, sub0.value.balance]).toEqual([300.5, 300.5]);
    expect([master0.value.amount, master0.value.balance]).toEqual([-300.5, 699.5]);
    expect(sub0.value.description).toBe(master0.value.description);
    // Back to the master, from the sub-account's context, addressed by e-mail.
    const [, back] = await post(
      "/v2/auth/w/transfer",
      { from: "funding", to: "exchange", currency: "USD", amount: "0.5", email_dst: `${m.login}@example.com` },
      ta,
    );
    expect((back as unknown[])[6]).toBe("SUCCESS");
    expect((await wallets(m.token)).get("exchange:USD")).toBe(700);
    // More than the source holds: refused, nothing moves on either side.
    expect(
      await post(
        "/v2/auth/w/transfer",
        { from: "funding", to: "exchange", currency: "USD", amount: "301", user_id_dst: m.id },
        ta,
      ),
    ).toEqual([500, ["error", ERROR_CODES.GENERIC, "amount: insufficient balance in the source wallet"]]);
    expect(await wallets(ta)).toEqual(new Map([["funding:USD", 300]]));
    expect(
      await post(
        "/v2/auth/w/transfer",
        { from: "exchange", to: "exchange", currency: "USD", amount: "1", user_id_dst: "x" },
        m.token,
      ),
    ).toEqual([400, ["error", ERROR_CODES.GENERIC, "account: invalid"]]);
  });

  it("is one transaction: a failure on the receiving side leaves the sender untouched and tells no socket", async () => {
    const m = await master();
    const a = await createSub(m.token, `atom${m.id}`);
    const ws = new WebSocket(`ws://${api.host}/ws/2`);
    const frames: unknown[][] = [];
    ws.on("message", (d) => {
      const f = JSON.parse(messageText(d)) as unknown;
      if (Array.isArray(f) && f[0] === 0) frames.push(f);
    });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", token: m.token }));
    await wait(150);
    frames.length = 0;
    venue.db.exec(
      `CREATE TEMP TRIGGER refuse_sub BEFORE INSERT ON ledgers WHEN NEW.user_id = ${a.id} BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
    );
    try {
      const [status] = await post(
        "/v2/auth/w/transfer",
        { from: "exchange", to: "exchange", currency: "USD", amount: "10", user_id_dst: a.id },
        m.token,
      );
      expect(status).toBe(500);
    } finally {
      venue.db.exec("DROP TRIGGER refuse_sub");
    }
    await wait(100);
    expect((await wallets(m.token)).get("exchange:USD")).toBe(1000);
    expect(venue.db.prepare("SELECT COUNT(*) AS c FROM wallets WHERE user_id = ?").get(a.id)).toEqual({ c: 0 });
    expect(frames.filter((f) => f[1] === "wu")).toEqual([]);
    ws.close();
  });
});

describe("a context ends with the master's session", () => {
  it("the master's logout ends its contexts, and closes their sockets", async () => {
    const m = await master();
    const a = await createSub(m.token, `lo${m.id}`);
    const t = await context(m.token, a.id);
    const ws = new WebSocket(`ws://${api.host}/ws/2`);
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", token: t }));
    await wait(150);
    let closed = false;
    ws.once("close", () => (closed = true));
    expect(await post("/v2/auth/w/token/del", { token: m.token }, m.token)).toEqual([200, [1]]);
    expect((await post("/v2/auth/r/wallets", {}, t))[1]).toEqual(["error", ERROR_CODES.AUTH_FAILED, "token: invalid"]);
    await until(() => closed, "the context's socket closed");
  });

  it("a renewed context dies too, and the context's own logout ends the master's session", async () => {
    const m = await master();
    const a = await createSub(m.token, `lo2${m.id}`);
    const t = await context(m.token, a.id);
    const [, renewed] = await post(
      "/v2/auth/w/token",
      { scope: "api", writePermission: true, caps: ["o", "f", "s", "w"] },
      t,
    );
    const t2 = (renewed as string[])[0] as string;
    expect((await userInfo(t2)).id).toBe(a.id);
    expect(await post("/v2/auth/w/token/del", { token: t2 }, t2)).toEqual([200, [1]]);
    expect((await post("/v2/auth/r/wallets", {}, m.token))[1]).toEqual([
      "error",
      ERROR_CODES.AUTH_FAILED,
      "token: invalid",
    ]);
    expect((await post("/v2/auth/r/wallets", {}, t))[1]).toEqual(["error", ERROR_CODES.AUTH_FAILED, "token: invalid"]);
  });

  it("ending the master's session elsewhere (security page) ends the context; so does a freeze", async () => {
    const m = await master();
    const a = await createSub(m.token, `lo3${m.id}`);
    const t = await context(m.token, a.id);
    const session = venue.accounts.sessionOfToken(m.token);
    expect(venue.accounts.revokeSessions(m.id, (s) => s === session)).toBe(1);
    expect((await post("/v2/auth/r/wallets", {}, t))[1]).toEqual(["error", ERROR_CODES.AUTH_FAILED, "token: invalid"]);
    const m2 = await master();
    const b = await createSub(m2.token, `lo4${m2.id}`);
    const t3 = await context(m2.token, b.id);
    venue.accounts.freeze(m2.id, Date.now());
    expect((await post("/v2/auth/r/wallets", {}, t3))[1]).toEqual(["error", ERROR_CODES.AUTH_FAILED, "token: invalid"]);
  });
});
