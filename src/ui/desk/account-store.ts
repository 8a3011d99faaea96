/**
 * The signed-in account as the worker reconciles it from channel 0, mirrored for the desk's tables
 * and order form. The account view is low-rate (it changes on orders, fills and wallet moves, and the
 * worker sends it only on change), so it may live in valtio; the records are frozen and kept behind
 * `ref()` so valtio does not wrap hundreds of rows in proxies.
 *
 * The worker signs the socket in again after every drop with the credentials it holds; a refusal
 * then (an expired token after a long outage) comes with the view's `auth` and turns the link
 * `failed` like a refused first sign-in, which the session layer watches (forced logout on 10100).
 */
import { proxy, ref } from "valtio";
import type { AccountCredentials, AccountView, AuthResult } from "../../protocol";
import { log } from "../log";
import { market } from "../market/market";

export type AccountLink = "signed-out" | "authenticating" | "live" | "failed";

export interface AccountStore {
  /** `live` stays while the worker reconnects and re-authenticates; only a refusal ends it. */
  link: AccountLink;
  /** The last auth failure (code and message from the exchange, first sign-in or any later one). */
  failure: { code: number | null; msg: string } | null;
  /** The reconciled account; null until the first channel-0 snapshot. */
  view: AccountView | null;
}

export const accountStore: AccountStore = proxy({ link: "signed-out", failure: null, view: null });

let feed: AbortController | null = null;

/**
 * Authenticates the worker's account socket and mirrors the account. Resolves with the exchange's
 * reply; on failure the store says `failed` and keeps the reply so the session layer can decide
 * (10100: forced logout).
 */
export async function connectAccount(credentials: AccountCredentials): Promise<AuthResult> {
  feed?.abort();
  const controller = new AbortController();
  feed = controller;
  accountStore.link = "authenticating";
  accountStore.failure = null;
  const bridge = market();
  const result = await bridge.authenticate(credentials);
  if (controller.signal.aborted) return result;
  if (!result.ok) {
    accountStore.link = "failed";
    accountStore.failure = { code: result.code, msg: result.msg };
    return result;
  }
  accountStore.link = "live";
  await bridge.account((view) => {
    if (controller.signal.aborted) return;
    accountStore.view = ref(view);
    const auth = view.auth;
    if (auth?.status === "failed" && accountStore.link !== "failed") {
      // The failure first: the session layer reads it when it sees the link fail.
      accountStore.failure = { code: auth.code, msg: auth.msg };
      accountStore.link = "failed";
    }
  }, controller.signal);
  return result;
}

/**
 * Hands the signed-in account socket a renewed token for its next (re)auth. The socket is not
 * reconnected — it stays signed in for its life (see the worker's AccountAuth) — so the desk's
 * tables do not blink on every renewal. Resolves false when no sign-in can take it (signed out,
 * refused, or a different kind of credentials): connect instead.
 */
export async function renewAccount(credentials: AccountCredentials): Promise<boolean> {
  if (feed === null || accountStore.link === "failed" || accountStore.link === "signed-out") return false;
  return market().swapCredentials(credentials);
}

/** Closes the account socket and forgets the account (logout, forced logout). */
export async function disconnectAccount(): Promise<void> {
  feed?.abort();
  feed = null;
  accountStore.link = "signed-out";
  accountStore.failure = null;
  accountStore.view = null;
  try {
    await market().signOut();
  } catch (err) {
    log.warn("account sign-out failed", err);
  }
}
