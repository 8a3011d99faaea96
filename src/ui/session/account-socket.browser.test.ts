/**
 * The session's account socket through the real market worker in Chromium (the bridge, Comlink,
 * market.worker.ts), against the scripted exchange: a swapped token is used on the next reconnect,
 * and the refusal of a later re-auth arrives in the account view that the account store watches.
 * (That a swap opens no socket is checked in src/workers/core/auth.exchange.test.ts.)
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import type { AccountView } from "../../protocol";
import { createMarketBridge } from "../market/bridge";

const bridge = createMarketBridge();
afterAll(() => bridge.dispose());

describe("the account socket's credentials in the worker", () => {
  it("re-authenticates with a swapped token after a drop, and reports a later refusal in the view", async () => {
    // The scripted exchange sends no heartbeats: with a short watchdog the worker drops the silent
    // account socket and reconnects, as it does after a network loss.
    await bridge.configure({ wsPublic: inject("exchangeUrl"), watchdogMs: 600 });
    expect(await bridge.swapCredentials({ kind: "token", token: "good-token" }), "nothing signed in yet").toBe(false);
    expect(await bridge.authenticate({ kind: "token", token: "good-token" })).toMatchObject({ ok: true, userId: 4242 });
    const views: AccountView[] = [];
    const ac = new AbortController();
    await bridge.account((v) => views.push(v), ac.signal);
    await expect.poll(() => views.at(-1)?.auth, { timeout: 5000 }).toMatchObject({ status: "ok", replies: 1 });

    // Swapped in; the scripted exchange knows one good token, so the renewal hands the same one.
    expect(await bridge.swapCredentials({ kind: "token", token: "good-token" })).toBe(true);
    expect(await bridge.swapCredentials({ kind: "apiKey", key: "key", secret: "secret" }), "another kind").toBe(false);
    await expect.poll(() => views.at(-1)?.auth?.replies ?? 0, { timeout: 5000 }).toBeGreaterThan(1);
    await expect.poll(() => views.at(-1)?.auth?.status, { timeout: 5000 }).toBe("ok");
    await expect.poll(() => views.at(-1)?.wallets.length, { timeout: 5000 }).toBe(2);

    // A token the exchange refuses, used on the next reconnect: the view says so, with the code.
    expect(await bridge.swapCredentials({ kind: "token", token: "dead-token" })).toBe(true);
    await expect
      .poll(() => views.at(-1)?.auth, { timeout: 5000 })
      .toMatchObject({ status: "failed", code: 10100, msg: "apikey: invalid" });
    // Refused credentials are forgotten: nothing left to swap into, and orders are refused locally.
    expect(await bridge.swapCredentials({ kind: "token", token: "good-token" })).toBe(false);
    expect((await bridge.cancelOrder(1)).localError).toBe("not-authenticated");
    ac.abort();
    await bridge.signOut();
  });
});
