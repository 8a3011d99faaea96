/**
 * For the exchange's wire tests: the demo account signed in on a test API host (see test-api.ts),
 * with a token-authenticated REST POST and an authenticated socket that collects its channel-0
 * frames. Registers its own beforeAll/afterAll, so call it at a describe's (or the file's) top level.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import WebSocket from "ws";
import type { ApiServer, ApiServerOptions } from "../api-server.ts";
import { notificationCodec, orderCodec, type Order } from "../../src/protocol/index.ts";
import { DEMO } from "../store/seed.ts";
import { listenApi, postJson } from "./api.ts";
import { messageText } from "../ws-text.ts";

export const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds, polling every 10 ms; throws naming `what` after 4 s. */
export async function until(check: () => boolean, what: string): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > 4000) throw new Error(`timed out: ${what}`);
    await wait(10);
  }
}

export interface DemoSession {
  readonly host: string;
  readonly token: string;
  // Function properties, not methods: the tests pass them around unbound (`const rest = demo.rest`).
  /** POST with the session's token; the reply's status and JSON body. */
  readonly rest: (path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
  /** An account socket authenticated with the token (plus `auth` fields), its channel-0 frames collected. */
  readonly socket: (auth?: Record<string, unknown>) => Promise<{ ws: WebSocket; frames: unknown[][] }>;
  /** An account socket sending exactly these `auth` fields (an API key's, another token's). */
  readonly authSocket: (auth: Record<string, unknown>) => Promise<{ ws: WebSocket; frames: unknown[][] }>;
}

/** A test API host started for the calling file (or describe); its address is known once started. */
export interface TestApi {
  /** `host:port`, set in `beforeAll`. */
  readonly host: string;
  /** `http://host:port`, set in `beforeAll`. */
  readonly base: string;
  /** POSTs `body` as JSON to `path`, with a session token when given: the status and the JSON body. */
  readonly post: (path: string, body: unknown, token?: string) => Promise<[number, unknown]>;
}

/**
 * Starts an API host with options `o` (see `listenApi`) for the calling file and closes it after.
 * Registers its own beforeAll/afterAll, so call it at a describe's (or the file's) top level.
 */
export function testApi(o: Pick<ApiServerOptions, "exchange"> & Partial<ApiServerOptions>): TestApi {
  let api: ApiServer | null = null;
  let host = "";
  beforeAll(async () => {
    const started = await listenApi(o);
    api = started.api;
    host = started.host;
  });
  afterAll(() => api?.close());
  return {
    get host() {
      return host;
    },
    get base() {
      return `http://${host}`;
    },
    post: (path, body, token) => postJson(`http://${host}${path}`, body, token),
  };
}

/** Five significant digits, the precision the exchange accepts for prices. */
export const p5 = (x: number): number => Number(x.toPrecision(5));

/**
 * Signs in `login` (the demo account unless given) on a fresh test API host. Registers its own
 * beforeAll/afterAll, so call it at a describe's (or the file's) top level.
 */
export function demoSession(
  o: Pick<ApiServerOptions, "exchange"> &
    Partial<ApiServerOptions> & { readonly login?: { readonly username: string; readonly password: string } },
): DemoSession {
  const login = o.login ?? DEMO;
  let api: ApiServer | null = null;
  let host = "";
  let token = "";
  beforeAll(async () => {
    const started = await listenApi(o);
    api = started.api;
    host = started.host;
    const res = await fetch(`http://${host}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: login.username, password: login.password }),
    });
    [token] = (await res.json()) as [string];
  });
  afterAll(() => api?.close());
  async function authSocket(auth: Record<string, unknown>): Promise<{ ws: WebSocket; frames: unknown[][] }> {
    const ws = new WebSocket(`ws://${host}/ws/2`);
    const frames: unknown[][] = [];
    ws.on("message", (d) => {
      const f = JSON.parse(messageText(d)) as unknown;
      if (Array.isArray(f) && f[0] === 0) frames.push(f);
    });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", ...auth }));
    await wait(150);
    return { ws, frames };
  }
  return {
    get host() {
      return host;
    },
    get token() {
      return token;
    },
    rest: async (path, body = {}) => {
      const r = await fetch(`http://${host}${path}`, {
        method: "POST",
        headers: { "bfx-token": token, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: await r.json() };
    },
    socket: (auth = {}) => authSocket({ token, ...auth }),
    authSocket,
  };
}

/** Nonces for signed calls, strictly increasing across every key and test file of the process. */
let keyNonce = Date.now() * 1000;

/**
 * A REST POST signed with an API key as the real API wants it: `bfx-nonce`, `bfx-apikey` and
 * `bfx-signature` = HMAC-SHA384 over `/api` + path + nonce + body. The status and JSON body.
 */
export async function signedPost(
  host: string,
  key: { readonly key: string; readonly secret: string },
  path: string,
  body: unknown = {},
): Promise<[number, unknown]> {
  const raw = JSON.stringify(body);
  const n = ++keyNonce;
  const sig = createHmac("sha384", key.secret).update(`/api${path}${n}${raw}`).digest("hex");
  const res = await fetch(`http://${host}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "bfx-nonce": String(n),
      "bfx-apikey": key.key,
      "bfx-signature": sig,
    },
    body: raw,
  });
  return [res.status, await res.json()];
}

/** A REST POST with a token (`bfx-token`). The status and JSON body. */
export async function tokenPost(
  host: string,
  token: string,
  path: string,
  body: unknown = {},
): Promise<[number, unknown]> {
  const res = await fetch(`http://${host}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "bfx-token": token },
    body: JSON.stringify(body),
  });
  return [res.status, await res.json()];
}

/** The fields of a socket `auth` signed with an API key (payload `AUTH` + nonce, HMAC-SHA384). */
export function keyAuth(key: { readonly key: string; readonly secret: string }): Record<string, unknown> {
  const n = ++keyNonce;
  const payload = `AUTH${n}`;
  return {
    apiKey: key.key,
    authNonce: n,
    authPayload: payload,
    authSig: createHmac("sha384", key.secret).update(payload).digest("hex"),
  };
}

/** Submits an order over the session's REST; the first order of the on-req notification, decoded. */
export function orderSubmitter(s: DemoSession, symbol: string): (order: Record<string, unknown>) => Promise<Order> {
  return async (order) => {
    const r = await s.rest("/v2/auth/w/order/submit", { symbol, ...order });
    const n = notificationCodec.decode(r.body);
    const o = orderCodec.decode(n.ok ? (n.value.data as unknown[])[0] : null);
    if (!o.ok) throw new Error(`no order in ${r.status} ${JSON.stringify(r.body)}`);
    return o.value;
  };
}
