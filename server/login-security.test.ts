/**
 * Secrets and login throttling: the mailed API-key code is compared in constant time
 * (timingSafeEqual on equal-length buffers), a pending key generation takes only a few wrong codes,
 * and the captcha failure counter is kept per account — a username and an e-mail address of one
 * account count together — and per address.
 */
import type * as crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ApiServer } from "./api-server.ts";
import { MAX_CODE_TRIES } from "./api-keys.ts";
import { listenApi, postJson } from "./test-support/api.ts";
import { openVenue } from "./exchange/venue.ts";
import { Identity } from "./identity.ts";
import { DEMO } from "./store/seed.ts";

// Every constant-time comparison goes through node:crypto's timingSafeEqual: counted here.
const compared = vi.hoisted(() => ({ calls: [] as [string, string][] }));
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView): boolean => {
      compared.calls.push([
        Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString(),
        Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString(),
      ]);
      return actual.timingSafeEqual(a, b);
    },
  };
});

const venue = openVenue({ dbPath: ":memory:", seed: 4, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
let api: ApiServer;
let base = "";

beforeAll(async () => {
  ({ api, host: base } = await listenApi({ exchange: venue.exchange, account: venue.gateway }));
  base = `http://${base}`;
});
afterAll(() => api.close());

const post = (path: string, body: unknown, token?: string): Promise<[number, unknown]> =>
  postJson(base + path, body, token);

const demoToken = async (): Promise<string> =>
  ((await post("/v2/login", { login: DEMO.username, password: DEMO.password }))[1] as string[])[0] as string;

const lastMailCode = async (): Promise<string> => {
  const mail = ((await (await fetch(`${base}/dev/outbox`)).json()) as { body: string }[])[0]?.body ?? "";
  return /(\d{6})/.exec(mail)?.[1] ?? "";
};

describe("API-key generation codes", () => {
  it("compares the mailed code in constant time", async () => {
    const token = await demoToken();
    const [, pending] = await post(
      "/v2/auth/w/api/key/generate",
      { label: "ct", permissions: { orders: { read: 1, write: 0 } } },
      token,
    );
    const id = (pending as { id: string }).id;
    const code = await lastMailCode();
    const wrong = code === "123456" ? "654321" : "123456";
    compared.calls.length = 0;
    expect((await post("/v2/auth/w/api/key/verify", { id, code: wrong }, token))[1]).toEqual([
      "error",
      10001,
      "code: invalid",
    ]);
    expect(compared.calls).toContainEqual([wrong, code]);
    const [status, created] = await post("/v2/auth/w/api/key/verify", { id, code }, token);
    expect(status).toBe(200);
    expect((created as string[]).length).toBe(2);
    expect(compared.calls).toContainEqual([code, code]);
  });

  it(`drops a pending generation after ${MAX_CODE_TRIES} wrong codes, even if the right one follows`, async () => {
    const token = await demoToken();
    const [, pending] = await post(
      "/v2/auth/w/api/key/generate",
      { label: "guess", permissions: { orders: { read: 1, write: 0 } } },
      token,
    );
    const id = (pending as { id: string }).id;
    const code = await lastMailCode();
    for (let i = 0; i < MAX_CODE_TRIES; i++) {
      const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
      expect((await post("/v2/auth/w/api/key/verify", { id, code: wrong }, token))[1]).toEqual([
        "error",
        10001,
        "code: invalid",
      ]);
    }
    expect((await post("/v2/auth/w/api/key/verify", { id, code }, token))[1]).toEqual([
      "error",
      10001,
      "id: invalid or expired",
    ]);
  });
});

describe("login captcha counter", () => {
  it("counts a username and the account's e-mail address as one login (over HTTP)", async () => {
    // Two tries by username, one by e-mail (in another case): three against one account.
    for (const login of [DEMO.username, DEMO.username, DEMO.email.toUpperCase()])
      expect((await post("/v2/login", { login, password: "wrong" }))[1]).toEqual(["error", 10100, "login: invalid"]);
    expect((await post("/v2/int/captcha/required", { method: "login", login: DEMO.email }))[1]).toEqual([true]);
    expect((await post("/v2/int/captcha/required", { method: "login", login: DEMO.username }))[1]).toEqual([true]);
    expect((await post("/v2/login", { login: DEMO.email, password: DEMO.password }))[1]).toEqual([
      "error",
      10020,
      "captcha: required",
    ]);
  });

  it("keeps the account's count apart per address and catches one address trying many logins", async () => {
    let now = 1_800_000_000_000;
    const identity = new Identity(venue.gateway, () => now);
    const login = async (l: string, address: string, password = "wrong"): Promise<unknown> =>
      (await identity.login({ login: l, password }, address)).body;
    const required = (l: string, address: string): unknown =>
      (identity.handle("/v2/int/captcha/required", { login: l }, address)?.body as boolean[])[0];
    // Unknown logins count by their normalized text: " Nobody " and "nobody" are one.
    await login(" Nobody ", "10.0.0.1");
    await login("nobody", "10.0.0.2");
    expect(required("nobody", "10.0.0.3")).toBe(false);
    await login("NOBODY", "10.0.0.3");
    expect(required("nobody", "10.0.0.4")).toBe(true);
    // The demo account: username then e-mail, from one address — the third try needs the captcha.
    await login(DEMO.username, "10.0.1.1");
    await login(DEMO.email, "10.0.1.1");
    expect(required(DEMO.username, "10.0.1.9")).toBe(false);
    await login(DEMO.email, "10.0.1.1");
    expect(await login(DEMO.username, "10.0.1.9", DEMO.password)).toEqual(["error", 10020, "captcha: required"]);
    // One address spraying distinct logins: ten failures, then every login from it needs the captcha.
    for (let i = 0; i < 10; i++) await login(`user${i}@example.com`, "10.0.2.1");
    expect(required("someone-else", "10.0.2.1")).toBe(true);
    expect(required("someone-else", "10.0.2.2")).toBe(false);
    // Both counters forget after the window.
    now += 11 * 60_000;
    expect(required(DEMO.username, "10.0.2.1")).toBe(false);
  });
});
