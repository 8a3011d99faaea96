/**
 * API keys over real HTTP and SQLite: every rule of api-keys.ts — validation of the label, the
 * permissions (both permission-string formats, the object and row forms) and the IP allowlist, with
 * nothing written on a refusal; the mailed-code verification (the request survives a restart of the
 * host); the secret given once; what a read-only key may do; the allowlist on REST, on sockets and
 * on tokens minted with the key; edits; revoking one key or all; and the 429 Retry-After header.
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { apiKeyRowCodec, permissionRowCodec } from "../src/protocol/index.ts";
import { MAX_IPS, MAX_LABEL, MAX_PENDING, parseIpAllowlist } from "./api-keys.ts";
import { listenApi, mailedCode, mailsTo } from "./test-support/api.ts";
import { demoSession, keyAuth, signedPost, tokenPost, wait } from "./test-support/session.ts";
import { openVenue } from "./exchange/venue.ts";
import { DEMO } from "./store/seed.ts";
import { messageText } from "./ws-text.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 12, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
// Key tests make many authenticated calls from one address: the per-minute limit is not under test here.
const s = demoSession({
  exchange: venue.exchange,
  account: venue.gateway,
  limits: { public: 10_000, auth: 10_000, login: 10_000 },
});
const SUBJECT = "Confirm your new API key";

interface Key {
  readonly key: string;
  readonly secret: string;
}

const count = (table: string): number =>
  (venue.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

/** The demo account's keys as `r/api/keys` lists them, decoded. */
async function listed() {
  const { status, body } = await s.rest("/v2/auth/r/api/keys");
  expect(status).toBe(200);
  const rows = apiKeyRowCodec.decodeList(body);
  if (!rows.ok) throw new Error(JSON.stringify(body));
  return rows.value.map((r) => ({
    ...r,
    perms: Object.fromEntries(
      (r.permissions as unknown[]).map((p) => {
        const d = permissionRowCodec.decode(p);
        if (!d.ok) throw new Error("permission row");
        return [d.value.scope, { read: d.value.read, write: d.value.write }];
      }),
    ),
  }));
}

/** Generates and verifies a key with the mailed code; the key and its secret. */
async function createKey(fields: Record<string, unknown>): Promise<Key> {
  const gen = await s.rest("/v2/auth/w/api/key/generate", fields);
  expect(gen, JSON.stringify(gen.body)).toMatchObject({ status: 200, body: { method: "email" } });
  const { id } = gen.body as { id: string };
  const code = await mailedCode(`http://${s.host}`, DEMO.email, SUBJECT);
  const done = await s.rest("/v2/auth/w/api/key/verify", { id, code });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  const [key, secret] = done.body as [string, string];
  return { key, secret };
}

const READ_ONLY = { orders: { read: 1, write: 0 }, wallets: { read: 1, write: 0 }, account: { read: 1, write: 0 } };

describe("generating a key: refusals write nothing", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["an empty label", { label: "  ", permissions: READ_ONLY }, "label: invalid"],
    ["a label too long", { label: "x".repeat(MAX_LABEL + 1), permissions: READ_ONLY }, "label: invalid"],
    ["a label with a control character", { label: "bot\nline", permissions: READ_ONLY }, "label: invalid"],
    ["a label that is not text", { label: 5, permissions: READ_ONLY }, "label: invalid"],
    ["an unknown scope", { label: "k", permissions: { launch: { read: 1, write: 1 } } }, "permissions: invalid"],
    ["no permissions field", { label: "k" }, "permissions: invalid"],
    ["a scope list with a bad item", { label: "k", permissions: "orders-read,nonsense" }, "permissions: invalid"],
    ["a scope list naming an unknown scope", { label: "k", permissions: "rockets-read" }, "permissions: invalid"],
    ["caps with an unknown letter", { label: "k", permissions: "o:zz:1" }, "permissions: invalid"],
    ["caps without the write flag", { label: "k", permissions: "o:f:w" }, "permissions: invalid"],
    ["a malformed row", { label: "k", permissions: [["orders", 1, 0], "wallets"] }, "permissions: invalid"],
    ["nothing granted", { label: "k", permissions: { orders: { read: 0, write: 0 } } }, "permissions: none granted"],
    ["a bad address", { label: "k", permissions: READ_ONLY, ips: ["10.0.0.300"] }, "ips: invalid address 10.0.0.300"],
    ["a bad range", { label: "k", permissions: READ_ONLY, ips: "10.0.0.0/33" }, "ips: invalid address 10.0.0.0/33"],
    ["an allowlist that is not a list", { label: "k", permissions: READ_ONLY, ips: { a: 1 } }, "ips: invalid"],
    [
      "too many addresses",
      { label: "k", permissions: READ_ONLY, ips: Array.from({ length: MAX_IPS + 1 }, (_, i) => `10.0.0.${i + 1}`) },
      `ips: at most ${MAX_IPS} entries`,
    ],
  ];
  for (const [what, body, msg] of cases) {
    it(`refuses ${what}`, async () => {
      const before = [count("api_keys"), count("api_key_requests"), count("outbox")];
      expect(await s.rest("/v2/auth/w/api/key/generate", body)).toEqual({
        status: 500,
        body: ["error", 10001, msg],
      });
      expect([count("api_keys"), count("api_key_requests"), count("outbox")]).toEqual(before);
    });
  }

  it(`keeps at most ${MAX_PENDING} generations waiting for their code`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < MAX_PENDING; i++) {
      const r = await s.rest("/v2/auth/w/api/key/generate", { label: `wait ${i}`, permissions: READ_ONLY });
      expect(r.status).toBe(200);
      ids.push((r.body as { id: string }).id);
    }
    const mails = (await mailsTo(`http://${s.host}`, DEMO.email)).length;
    expect(await s.rest("/v2/auth/w/api/key/generate", { label: "one more", permissions: READ_ONLY })).toEqual({
      status: 500,
      body: ["error", 10001, "id: too many pending, verify or wait"],
    });
    expect((await mailsTo(`http://${s.host}`, DEMO.email)).length).toBe(mails);
    venue.db.prepare("DELETE FROM api_key_requests").run();
  });
});

describe("permission formats", () => {
  it("reads a scope list: every item ends in read or write, write implies read", async () => {
    const k = await createKey({ label: "scope list", permissions: "orders-read,orders-write,wallets-read" });
    const row = (await listed()).find((r) => r.key === k.key);
    expect(row?.perms["orders"]).toEqual({ read: true, write: true });
    expect(row?.perms["wallets"]).toEqual({ read: true, write: false });
    expect(row?.perms["funding"]).toEqual({ read: false, write: false });
    expect(row?.perms["withdraw"]).toEqual({ read: false, write: false });
  });

  it("reads capability letters with a trailing write flag", async () => {
    const w = await createKey({ label: "caps write", permissions: "o:f:w:1" });
    const r = await createKey({ label: "caps read", permissions: "a:o:0" });
    const rows = await listed();
    const write = rows.find((x) => x.key === w.key);
    const read = rows.find((x) => x.key === r.key);
    for (const scope of ["orders", "funding", "wallets"])
      expect(write?.perms[scope]).toEqual({ read: true, write: true });
    expect(write?.perms["account"]).toEqual({ read: false, write: false });
    expect(read?.perms["account"]).toEqual({ read: true, write: false });
    expect(read?.perms["orders"]).toEqual({ read: true, write: false });
    expect(read?.perms["wallets"]).toEqual({ read: false, write: false });
  });

  it("reads the row form [[scope, read, write]]", async () => {
    const k = await createKey({
      label: "rows",
      permissions: [
        ["positions", 1, 0],
        ["settings", 1, 1],
      ],
    });
    const row = (await listed()).find((r) => r.key === k.key);
    expect(row?.perms["positions"]).toEqual({ read: true, write: false });
    expect(row?.perms["settings"]).toEqual({ read: true, write: true });
  });
});

describe("verification by the mailed code", () => {
  it("mails a code, creates the key on it, lists it without its secret", async () => {
    const gen = await s.rest("/v2/auth/w/api/key/generate", {
      label: "  mailed  ",
      permissions: READ_ONLY,
      ips: "127.0.0.1, 10.0.0.0/8\n10.0.0.0/8",
    });
    const { id } = gen.body as { id: string };
    expect(await s.rest("/v2/auth/r/api/keys").then((r) => JSON.stringify(r.body))).not.toContain(id);
    const code = await mailedCode(`http://${s.host}`, DEMO.email, SUBJECT);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === "000000" ? "000001" : "000000";
    const keysBefore = count("api_keys");
    expect(await s.rest("/v2/auth/w/api/key/verify", { id, code: wrong })).toEqual({
      status: 500,
      body: ["error", 10001, "code: invalid"],
    });
    expect(count("api_keys")).toBe(keysBefore);
    const done = await s.rest("/v2/auth/w/api/key/verify", { id, code });
    const [key, secret] = done.body as [string, string];
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    expect(secret).toMatch(/^[0-9a-f]{48}$/);
    // The secret is shown once: the list never has it, and the request is gone.
    const list = await s.rest("/v2/auth/r/api/keys");
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const row = (await listed()).find((r) => r.key === key);
    expect(row).toMatchObject({ label: "mailed", ipAllowlist: ["127.0.0.1", "10.0.0.0/8"] });
    expect(await s.rest("/v2/auth/w/api/key/verify", { id, code })).toEqual({
      status: 500,
      body: ["error", 10001, "id: invalid or expired"],
    });
  });

  it("keeps a waiting request across a restart of the host (it lives in SQLite)", async () => {
    const gen = await s.rest("/v2/auth/w/api/key/generate", { label: "restart", permissions: READ_ONLY });
    const { id } = gen.body as { id: string };
    const code = await mailedCode(`http://${s.host}`, DEMO.email, SUBJECT);
    // A fresh host: its own Identity and ApiKeys over the same database, as after a restart.
    const { api, host } = await listenApi({ exchange: venue.exchange, account: venue.gateway });
    try {
      const [status, body] = await tokenPost(host, s.token, "/v2/auth/w/api/key/verify", { id, code });
      expect(status).toBe(200);
      expect((body as string[]).length).toBe(2);
    } finally {
      await api.close();
    }
  });

  it("refuses another account's request id", async () => {
    const gen = await s.rest("/v2/auth/w/api/key/generate", { label: "mine", permissions: READ_ONLY });
    const { id } = gen.body as { id: string };
    const code = await mailedCode(`http://${s.host}`, DEMO.email, SUBJECT);
    const other = venue.accounts.createUser("other@orderflow.local", "other", "other-password-1", Date.now(), true);
    const token = venue.accounts.issueToken(other, Date.now());
    expect(await tokenPost(s.host, token, "/v2/auth/w/api/key/verify", { id, code })).toEqual([
      500,
      ["error", 10001, "id: invalid or expired"],
    ]);
    expect((await s.rest("/v2/auth/w/api/key/verify", { id, code })).status).toBe(200);
  });
});

describe("what a key may do", () => {
  it("a read-only key reads but may not write, nor manage keys", async () => {
    const k = await createKey({ label: "reader", permissions: READ_ONLY });
    const [readStatus, wallets] = await signedPost(s.host, k, "/v2/auth/r/wallets");
    expect(readStatus).toBe(200);
    expect(Array.isArray(wallets)).toBe(true);
    const order = { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: "1000" };
    expect(await signedPost(s.host, k, "/v2/auth/w/order/submit", order)).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
    expect(await signedPost(s.host, k, "/v2/auth/w/api/key/generate", { label: "x", permissions: READ_ONLY })).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
    // Its own permissions it may read, as the missing-permissions warning needs.
    const [, perms] = await signedPost(s.host, k, "/v2/auth/r/permissions");
    expect(perms).toContainEqual(["orders", 1, 0]);
  });
});

describe("IP allowlist", () => {
  it("refuses REST calls, sockets and token minting from an address not listed", async () => {
    const k = await createKey({ label: "office", permissions: READ_ONLY, ips: ["192.0.2.10", "2001:db8::/32"] });
    expect(await signedPost(s.host, k, "/v2/auth/r/wallets")).toEqual([
      500,
      ["error", 10100, "apikey: address not allowed"],
    ]);
    expect(await signedPost(s.host, k, "/v2/auth/w/token", { scope: "api", ttl: 60 })).toEqual([
      500,
      ["error", 10100, "apikey: address not allowed"],
    ]);
    const ws = new WebSocket(`ws://${s.host}/ws/2`);
    const events: Record<string, unknown>[] = [];
    ws.on("message", (d) => events.push(JSON.parse(messageText(d)) as Record<string, unknown>));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", ...keyAuth(k) }));
    await wait(150);
    expect(events.find((e) => e["event"] === "auth")).toMatchObject({
      status: "FAILED",
      msg: "apikey: address not allowed",
    });
    ws.close();
  });

  it("allows a listed range, and follows edits: a token minted with the key and its socket end when left out", async () => {
    // Minting a token is an account write (api-keys.ts requiredCap).
    const perms = { ...READ_ONLY, account: { read: 1, write: 1 } };
    const k = await createKey({ label: "loopback", permissions: perms, ips: ["127.0.0.0/8"] });
    expect((await signedPost(s.host, k, "/v2/auth/r/wallets"))[0]).toBe(200);
    const [, minted] = await signedPost(s.host, k, "/v2/auth/w/token", { scope: "api", ttl: 60 });
    const token = (minted as string[])[0] as string;
    expect((await tokenPost(s.host, token, "/v2/auth/r/wallets"))[0]).toBe(200);
    const { ws, frames } = await s.authSocket(keyAuth(k));
    expect(frames.some((f) => f[1] === "ws")).toBe(true);
    const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
    const upd = await s.rest("/v2/auth/w/api/key/update", { key: k.key, ips: "192.0.2.0/24" });
    expect(upd.status).toBe(200);
    expect(apiKeyRowCodec.decode(upd.body)).toMatchObject({ ok: true, value: { ipAllowlist: ["192.0.2.0/24"] } });
    expect(await closed).toBe(1008);
    expect(await tokenPost(s.host, token, "/v2/auth/r/wallets")).toEqual([
      500,
      ["error", 10100, "apikey: address not allowed"],
    ]);
    // An empty list is any address again.
    expect((await s.rest("/v2/auth/w/api/key/update", { key: k.key, ips: [] })).status).toBe(200);
    expect((await signedPost(s.host, k, "/v2/auth/r/wallets"))[0]).toBe(200);
  });

  it("normalizes what it stores", () => {
    expect(parseIpAllowlist(" ::FFFF:10.1.2.3 ,2001:DB8::/48 ")).toEqual({
      ok: true,
      ips: ["10.1.2.3", "2001:db8::/48"],
    });
    expect(parseIpAllowlist(undefined)).toEqual({ ok: true, ips: [] });
    expect(parseIpAllowlist(["1.2.3.4/8/1"])).toEqual({ ok: false, msg: "ips: invalid address 1.2.3.4/8/1" });
  });
});

describe("editing a key", () => {
  it("changes the label and the permissions (either string format); a refusal changes nothing", async () => {
    const k = await createKey({ label: "edit me", permissions: READ_ONLY });
    const before = (await listed()).find((r) => r.key === k.key);
    for (const [body, msg] of [
      [{ key: k.key, label: "" }, "label: invalid"],
      [{ key: k.key, permissions: "orders-read,bogus" }, "permissions: invalid"],
      [{ key: k.key, permissions: "o:0:x" }, "permissions: invalid"],
      [{ key: k.key, ips: ["not an address"] }, "ips: invalid address not an address"],
      [{ key: "nope", label: "x" }, "key: invalid"],
    ] as const) {
      expect(await s.rest("/v2/auth/w/api/key/update", body)).toEqual({ status: 500, body: ["error", 10001, msg] });
    }
    expect((await listed()).find((r) => r.key === k.key)).toEqual(before);
    const r = await s.rest("/v2/auth/w/api/key/update", { key: k.key, label: "trader", permissions: "o:w:1" });
    expect(r.status).toBe(200);
    const after = (await listed()).find((x) => x.key === k.key);
    expect(after?.label).toBe("trader");
    expect(after?.perms["orders"]).toEqual({ read: true, write: true });
    expect(after?.perms["account"]).toEqual({ read: false, write: false });
    expect(after?.mtsCreate).toBe(before?.mtsCreate);
  });
});

describe("revoking", () => {
  it("revokes one key: it stops working at once", async () => {
    const k = await createKey({ label: "short-lived", permissions: READ_ONLY });
    expect((await signedPost(s.host, k, "/v2/auth/r/wallets"))[0]).toBe(200);
    expect(await s.rest("/v2/auth/w/api/key/revoke", { key: k.key })).toEqual({ status: 200, body: [1] });
    expect(await signedPost(s.host, k, "/v2/auth/r/wallets")).toEqual([500, ["error", 10100, "apikey: invalid"]]);
    expect((await listed()).some((r) => r.key === k.key)).toBe(false);
    expect(await s.rest("/v2/auth/w/api/key/revoke", { key: k.key })).toEqual({
      status: 500,
      body: ["error", 10001, "key: invalid"],
    });
  });

  it("refuses a revoke naming nothing, and another account's key", async () => {
    expect(await s.rest("/v2/auth/w/api/key/revoke", {})).toEqual({
      status: 500,
      body: ["error", 10001, "key: invalid"],
    });
    const other = venue.accounts.createUser("third@orderflow.local", "third", "third-password-1", Date.now(), true);
    const theirs = venue.accounts.createApiKey(other, "theirs", ["a"], Date.now());
    expect(await s.rest("/v2/auth/w/api/key/revoke", { key: theirs.key })).toEqual({
      status: 500,
      body: ["error", 10001, "key: invalid"],
    });
    expect((await signedPost(s.host, theirs, "/v2/auth/r/info/user"))[0]).toBe(200);
  });

  it("revokes all of the account's keys, and only its own", async () => {
    const a = await createKey({ label: "all 1", permissions: READ_ONLY });
    const b = await createKey({ label: "all 2", permissions: READ_ONLY });
    const mine = (await listed()).length;
    const otherKeys = count("api_keys") - mine;
    expect(await s.rest("/v2/auth/w/api/key/revoke", { all: 1 })).toEqual({ status: 200, body: [mine] });
    expect(await listed()).toEqual([]);
    expect(count("api_keys")).toBe(otherKeys);
    for (const k of [a, b]) expect((await signedPost(s.host, k, "/v2/auth/r/wallets"))[0]).toBe(500);
    expect(await s.rest("/v2/auth/w/api/key/revoke", { all: true })).toEqual({ status: 200, body: [0] });
  });
});

describe("HTTP 429", () => {
  it("says when to retry: Retry-After in seconds, readable by the app's origin", async () => {
    const { api, host } = await listenApi({
      exchange: venue.exchange,
      account: venue.gateway,
      limits: { public: 2, auth: 2, login: 2 },
    });
    try {
      let res: Response | null = null;
      for (let i = 0; i < 3; i++)
        res = await fetch(`http://${host}/v2/platform/status`, { headers: { origin: "http://127.0.0.1:1" } });
      expect(res?.status).toBe(429);
      const after = Number(res?.headers.get("retry-after"));
      expect(after).toBeGreaterThanOrEqual(1);
      expect(after).toBeLessThanOrEqual(60);
      expect(res?.headers.get("access-control-expose-headers")).toContain("retry-after");
      expect(await res?.json()).toEqual({ error: "ERR_RATE_LIMIT" });
    } finally {
      await api.close();
    }
  });
});
