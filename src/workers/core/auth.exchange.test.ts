/**
 * The account socket's credentials against the embedded exchange itself: the worker's own
 * Connection, AccountAuth and AccountCore, wired as in market.worker.ts, over token sign-ins whose
 * tokens the exchange issues and revokes. A network drop is the client's socket torn down under it.
 */
import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { CONF_FLAGS, ERROR_CODES, type AccountAuthState, type Scheduler } from "../../protocol";
import { globalScheduler } from "../../../tests/support/timers";
import { demoSession, until } from "../../../server/test-support/session.ts";
import { openVenue } from "../../../server/exchange/venue.ts";
import { AccountCore } from "./account";
import { AccountAuth } from "./auth";
import { Connection, type SocketLike } from "./connection";

const venue = openVenue({ dbPath: ":memory:", seed: 5, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const demoId = venue.seeded as number;
// The exchange on a loopback port for the whole file (the demo session is signed in, unused here).
const api = demoSession({ exchange: venue.exchange, account: venue.gateway });

const token = (): string => venue.accounts.issueToken(demoId, Date.now());

interface Link {
  readonly conn: Connection;
  readonly auth: AccountAuth;
  readonly account: AccountCore;
  readonly timers: Scheduler;
  /** Every socket opened, in order. */
  readonly sockets: WebSocket[];
  /** Every sign-in state published, in order. */
  readonly states: AccountAuthState[];
  /** Tears the open socket down from under the client, as a network drop would. */
  drop(): void;
}

/** The worker's account socket, as openAccountSocket() wires it. */
function link(): Link {
  const timers = globalScheduler();
  const account = new AccountCore();
  const sockets: WebSocket[] = [];
  const states: AccountAuthState[] = [];
  const conn: Connection = new Connection({
    url: `ws://${api.host}/ws/2`,
    createSocket: (u) => {
      const ws = new WebSocket(u);
      sockets.push(ws);
      return ws as unknown as SocketLike;
    },
    timers,
    idleMs: Number.POSITIVE_INFINITY,
    baseBackoffMs: 20,
    flags: CONF_FLAGS.SEQ_ALL,
    onSocketStatus: (s) => {
      if (s !== "online") auth.closed();
    },
    onOpened: () => {
      account.reset();
      auth.opened();
    },
    onAuth: (ev) => auth.reply(ev),
    onAccount: (type, payload) => account.apply(type, payload),
  });
  const auth: AccountAuth = new AccountAuth({
    crypto: webcrypto.subtle,
    now: () => Date.now(),
    send: (msg) => conn.send(msg),
    stop: () => conn.stop(),
    reconnect: () => {
      conn.stop();
      conn.start();
    },
    onState: (s) => {
      states.push(s);
      account.setAuth(s);
    },
  });
  return {
    conn,
    auth,
    account,
    timers,
    sockets,
    states,
    drop: () => sockets.at(-1)?.terminate(),
  };
}

describe("the account socket's credentials against the embedded exchange", () => {
  it("takes a renewed token without reconnecting and signs in with it after a drop, the old one revoked", async () => {
    const l = link();
    const first = token();
    const signedIn = l.auth.begin({ kind: "token", token: first });
    l.conn.start();
    expect(await signedIn).toMatchObject({ ok: true, userId: demoId });
    await until(() => l.account.wallets.size > 0, "wallet snapshot");

    const renewed = token();
    expect(l.auth.swap({ kind: "token", token: renewed })).toBe(true);
    // The live socket stays as it was: same socket, still signed in, still fed.
    await new Promise((r) => setTimeout(r, 100));
    expect(l.sockets).toHaveLength(1);
    expect(l.auth.ready).toBe(true);
    expect(l.conn.status).toBe("online");

    // The old token dies (what its expiry does); the drop's re-auth must use the renewed one.
    venue.accounts.revokeToken(first);
    l.drop();
    await until(() => l.sockets.length === 2 && l.auth.ready, "re-auth after the drop");
    expect(l.auth.state).toEqual({ status: "ok", code: null, msg: "", replies: 2, canTrade: true });
    await until(() => l.account.wallets.size > 0, "account rebuilt");
    expect(l.account.snapshot().auth).toEqual(l.auth.state);
    l.conn.stop();
    l.timers.dispose();
  });

  it("reports a token refused on a later reconnect in the account view, and stops there", async () => {
    const l = link();
    const tok = token();
    const signedIn = l.auth.begin({ kind: "token", token: tok });
    l.conn.start();
    expect(await signedIn).toMatchObject({ ok: true });
    await until(() => l.account.wallets.size > 0, "wallet snapshot");
    const before = l.account.version;

    // The token dies while the socket lives on (the exchange checks a token at `auth` only).
    venue.accounts.revokeToken(tok);
    l.drop();
    await until(() => l.auth.state.status === "failed", "the refusal");
    expect(l.auth.state).toEqual({
      status: "failed",
      code: ERROR_CODES.AUTH_FAILED,
      msg: "token: invalid",
      replies: 2,
    });
    expect(l.states.map((s) => s.status)).toEqual(["pending", "ok", "pending", "failed"]);
    const view = l.account.snapshot();
    expect(view.auth).toMatchObject({ status: "failed", code: ERROR_CODES.AUTH_FAILED });
    expect(view.version).toBeGreaterThan(before);

    // Closed for good: no further sockets, nothing to swap into.
    await until(() => l.conn.status === "offline", "socket closed");
    await new Promise((r) => setTimeout(r, 200));
    expect(l.sockets).toHaveLength(2);
    expect(l.auth.swap({ kind: "token", token: token() })).toBe(false);
    l.timers.dispose();
  });

  it("signs in again with a key after a drop (a fresh nonce per auth)", async () => {
    const l = link();
    const { DEMO } = await import("../../../server/store/seed.ts");
    const signedIn = l.auth.begin({ kind: "apiKey", key: DEMO.apiKey, secret: DEMO.apiSecret });
    l.conn.start();
    expect(await signedIn).toMatchObject({ ok: true, userId: demoId });
    l.drop();
    await until(() => l.sockets.length === 2 && l.auth.ready, "re-auth after the drop");
    expect(l.auth.state).toMatchObject({ status: "ok", replies: 2 });
    l.conn.stop();
    l.timers.dispose();
  });
});
