/**
 * The exchange's pair list (`GET /v2/conf/pub:list:pair:exchange,pub:list:pair:futures`), which
 * says whether the market a desk address names exists before anything subscribes to it. Fetched
 * once per page life and shared (the list changes with a listing, not per visit); a failed fetch is
 * not kept, so the next desk asks again. A `useSyncExternalStore` source: it changes at most twice.
 */
import { decodePairLists, PAIR_LIST_KEYS } from "../../protocol";
import { apiUrl, appConfig } from "../config";
import { log } from "../log";

export type MarketList =
  | { readonly status: "loading" }
  | { readonly status: "ready"; readonly pairs: ReadonlySet<string> }
  /** The list could not be had: the desk opens as asked and the exchange's answer decides. */
  | { readonly status: "error" };

type ListFetch = (url: string) => Promise<{ readonly ok: boolean; json(): Promise<unknown> }>;

let state: MarketList = { status: "loading" };
let inflight: Promise<void> | null = null;
const listeners = new Set<() => void>();

function publish(next: MarketList): void {
  state = next;
  for (const l of listeners) l();
}

/** Starts the fetch unless the list is there or on its way. */
export function loadMarketList(fetchFn: ListFetch = (url) => fetch(url)): Promise<void> {
  if (state.status === "ready") return Promise.resolve();
  if (inflight) return inflight;
  if (state.status === "error") publish({ status: "loading" });
  inflight = fetchFn(apiUrl(appConfig().endpoints, `/v2/conf/${PAIR_LIST_KEYS.join(",")}`))
    .then(async (res) => {
      if (!res.ok) throw new Error("pair list: HTTP error");
      const pairs = decodePairLists(await res.json());
      if (pairs === null) throw new Error("pair list: unexpected answer");
      publish({ status: "ready", pairs: new Set(pairs) });
    })
    .catch((err: unknown) => {
      log.warn("pair list unavailable", err);
      publish({ status: "error" });
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

export function subscribeMarketList(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function marketListSnapshot(): MarketList {
  return state;
}
