/**
 * The exchange's lists that say whether a desk address's market exists before anything subscribes
 * to it: the pair list (`GET /v2/conf/pub:list:pair:exchange,pub:list:pair:futures`) for the trading
 * desk, the funding currencies (`pub:list:currency:margin`) for the funding desk. Each is fetched
 * once per page life and shared (a list changes with a listing, not per visit); a failed fetch is
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

export interface ConfList {
  /** Starts the fetch unless the list is there or on its way. */
  readonly load: (fetchFn?: ListFetch) => Promise<void>;
  readonly subscribe: (listener: () => void) => () => void;
  readonly snapshot: () => MarketList;
}

/** A shared list of names from `GET /v2/conf/{keys}` (each key's answer a list of strings). */
export function confList(keys: readonly string[], what: string): ConfList {
  let state: MarketList = { status: "loading" };
  let inflight: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const publish = (next: MarketList): void => {
    state = next;
    for (const l of listeners) l();
  };
  return {
    load: (fetchFn: ListFetch = (url) => fetch(url)): Promise<void> => {
      if (state.status === "ready") return Promise.resolve();
      if (inflight) return inflight;
      if (state.status === "error") publish({ status: "loading" });
      inflight = fetchFn(apiUrl(appConfig().endpoints, `/v2/conf/${keys.join(",")}`))
        .then(async (res) => {
          if (!res.ok) throw new Error(`${what}: HTTP error`);
          const names = decodePairLists(await res.json());
          if (names === null) throw new Error(`${what}: unexpected answer`);
          publish({ status: "ready", pairs: new Set(names) });
        })
        .catch((err: unknown) => {
          log.warn(`${what} unavailable`, err);
          publish({ status: "error" });
        })
        .finally(() => {
          inflight = null;
        });
      return inflight;
    },
    subscribe: (listener: () => void): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => state,
  };
}

// eslint-disable-next-line lingui/no-unlocalized-strings -- a log label, not text
const pairList = confList(PAIR_LIST_KEYS, "pair list");

export const loadMarketList = (fetchFn?: ListFetch): Promise<void> => pairList.load(fetchFn);
export const subscribeMarketList = pairList.subscribe;
export const marketListSnapshot = pairList.snapshot;
