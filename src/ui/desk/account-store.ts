/**
 * The signed-in account as the worker reconciles it from channel 0, mirrored for the desk's tables
 * and order form. The account view is low-rate (it changes on orders, fills and wallet moves, and the
 * worker sends it only on change), so it may live in valtio; the records are frozen and kept behind
 * `ref()` so valtio does not wrap hundreds of rows in proxies (HOUSE-STYLE 8).
 */
import { proxy, ref } from "valtio";
import type { AccountCredentials, AccountView, AuthResult } from "../../protocol";
import { log } from "../log";
import { market } from "../market/market";

export type AccountLink = "signed-out" | "authenticating" | "live" | "failed";

export interface AccountStore {
  link: AccountLink;
  /** The last auth failure (code and message from the exchange), for the session layer. */
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
    if (!controller.signal.aborted) accountStore.view = ref(view);
  }, controller.signal);
  return result;
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
