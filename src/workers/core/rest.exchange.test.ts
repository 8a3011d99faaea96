/**
 * The worker's REST under the one retry rule (rest.ts), against the embedded exchange over real
 * HTTP: its limiter's 429 with `Retry-After` (a read waits exactly that long and reads again, a
 * write comes back), and its key's nonce check (a signed call overtaken by a later-signed one is
 * refused with 10114, then signed again and answered).
 */
import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, parseApiError, walletCodec } from "../../protocol";
import { openVenue } from "../../../server/exchange/venue.ts";
import { testApi } from "../../../server/test-support/session.ts";
import { DEMO } from "../../../server/store/seed.ts";
import { AccountAuth } from "./auth";
import { signedPost, type RestResponse, type WorkerRest } from "./rest";

const venue = openVenue({ dbPath: ":memory:", seed: 9, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
/** The exchange's and the worker's clock: virtual, moved on only by the worker's waits. */
let clock = Date.UTC(2026, 10, 26, 9, 0, 20);
// One authenticated call a minute per address: the second one in a window gets the 429.
const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  now: () => clock,
  limits: { public: 90, auth: 1, login: 10 },
});
// The usual limits, for calls that race each other.
const roomy = testApi({ exchange: venue.exchange, account: venue.gateway, now: () => clock });

/** The worker's timers on the virtual clock: a wait moves the clock by its length, then ends. */
function virtualRest(
  onRateLimited: WorkerRest["onRateLimited"],
  fetchImpl: WorkerRest["fetch"] = (u, i) => fetch(u, i),
) {
  const waits: number[] = [];
  const rest: WorkerRest = {
    fetch: fetchImpl,
    timers: {
      now: () => clock,
      after: (ms, fn) => {
        waits.push(ms);
        clock += ms;
        queueMicrotask(fn);
        return () => {};
      },
    },
    ...(onRateLimited ? { onRateLimited } : {}),
  };
  return { rest, waits };
}

function keySigner(): AccountAuth {
  const a = new AccountAuth({
    crypto: webcrypto.subtle,
    now: () => clock,
    send: () => false,
    stop: () => undefined,
    reconnect: () => undefined,
  });
  void a.begin({ kind: "apiKey", key: DEMO.apiKey, secret: DEMO.apiSecret });
  return a;
}

const signer = (a: AccountAuth) => ({ headers: a.restHeaders.bind(a), resetNonce: () => a.resetNonce() });

describe("the worker's REST against the exchange's limits and nonces", () => {
  it("reads again after a 429's Retry-After, reports it, and gives a write its 429 back", async () => {
    clock += 60_000; // a fresh window
    const auth = keySigner();
    const reported: (string | null)[] = [];
    const { rest, waits } = virtualRest((retryAfter) => reported.push(retryAfter));
    expect((await signedPost(rest, signer(auth), api.base, "/v2/auth/r/wallets", "{}"))?.status).toBe(200);

    const read = await signedPost(rest, signer(auth), api.base, "/v2/auth/r/wallets", "{}");
    // 20 s into the window: the exchange said 40 s, the worker waited exactly that, and read again.
    expect(reported).toEqual(["40"]);
    expect(waits).toEqual([40_000]);
    expect(read?.status).toBe(200);
    expect(walletCodec.decodeList(read?.body).ok).toBe(true);

    // The window is spent again: a write is not sent twice.
    const write = await signedPost(rest, signer(auth), api.base, "/v2/auth/w/settings/set", '{"settings":{}}');
    expect(write?.status).toBe(429);
    expect(waits).toHaveLength(1);
    expect(reported).toHaveLength(2);
  });

  it("signs again with a fresh nonce when a later-signed call overtook the first (10114), once", async () => {
    clock += 60_000;
    const auth = keySigner();
    const replies: number[] = [];
    let releaseFirst: () => void = () => {};
    const firstHeld = new Promise<void>((r) => (releaseFirst = r));
    let calls = 0;
    const { rest } = virtualRest(undefined, async (url, init) => {
      // The first request leaves only after the second one was answered: its nonce is then below
      // the key's last.
      if (++calls === 1) await firstHeld;
      const res: RestResponse = await fetch(url, init);
      const body = await res.json();
      replies.push(parseApiError(body)?.code ?? res.status);
      if (calls === 2) releaseFirst();
      return { ok: res.ok, status: res.status, json: () => Promise.resolve(body) };
    });
    const first = signedPost(rest, signer(auth), roomy.base, "/v2/auth/r/wallets", "{}");
    const second = signedPost(rest, signer(auth), roomy.base, "/v2/auth/r/wallets", "{}");
    expect((await second)?.status).toBe(200);
    expect((await first)?.status).toBe(200);
    expect(replies).toEqual([200, ERROR_CODES.AUTH_NONCE, 200]);
  });
});
