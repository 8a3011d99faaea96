/**
 * Price alerts per pair (docs/product-rules.md#alerts: an alert is an index and a price, parsed from
 * a colon-separated key `index:price`; alerts per pair hold price lists; a price is added only once
 * per pair). Low-rate UI state in valtio, persisted in IndexedDB under those keys.
 *
 * Triggering: `checkAlerts(pair, lastPrice)` is fed the pair's last price (the chart's live candle,
 * or `watchAlerts`' tickers). When the price moves across an alert's level (or onto it) one "main"
 * notice is shown and the alert is REMOVED. Alerts are one-shot, as the exchange's own price alerts
 * are: a level the market sits on would otherwise fire on every tick that oscillates around it, and
 * a removed alert is one click to set again. A first observation never fires (no direction is known
 * yet), so reloading the page next to a level does not spam a notice.
 */
import { t } from "@lingui/core/macro";
import { del, get, set } from "idb-keyval";
import { proxy, snapshot, subscribe } from "valtio";
import { toSignificant, tradingSymbol, type TickerView } from "../../protocol";
import { log } from "../log";
import { notify } from "./notices";

export const ALERTS_STORAGE_KEY = "price-alerts";

/** One alert of a pair: its position in the pair's list and its price level. */
export interface PriceAlert {
  readonly index: number;
  readonly price: number;
}

export interface AlertsState {
  /** Alert prices per pair (`BTCUSD`), in the order they were added. */
  byPair: Record<string, number[]>;
}

export const alerts: AlertsState = proxy({ byPair: {} });

/** Last price seen per pair, to detect a crossing; plain map, it changes per tick. */
const lastSeen = new Map<string, number>();

/** The alert key: `index:price`. */
export function alertKey(alert: PriceAlert): string {
  return `${alert.index}:${alert.price}`;
}

/** Parses `index:price`; null for anything else (a missing part, a negative index, a price ≤ 0). */
export function parseAlertKey(key: string): PriceAlert | null {
  const at = key.indexOf(":");
  if (at <= 0 || at !== key.lastIndexOf(":")) return null;
  const indexText = key.slice(0, at);
  const priceText = key.slice(at + 1);
  if (!/^\d+$/.test(indexText) || priceText.trim() === "") return null;
  const index = Number(indexText);
  const price = Number(priceText);
  if (!Number.isSafeInteger(index) || !validAlertPrice(price)) return null;
  return { index, price };
}

export function validAlertPrice(price: number): boolean {
  return Number.isFinite(price) && price > 0;
}

/** The pair's alerts as `{index, price}`, index being the position in the pair's list. */
export function alertsOf(
  pair: string,
  state: { readonly byPair: Readonly<Record<string, readonly number[]>> } = alerts,
): PriceAlert[] {
  return (state.byPair[pair] ?? []).map((price, index) => ({ index, price }));
}

/** The pair's alert keys (`index:price`), the form they are stored in. */
export function alertKeysOf(
  pair: string,
  state: { readonly byPair: Readonly<Record<string, readonly number[]>> } = alerts,
): string[] {
  return alertsOf(pair, state).map(alertKey);
}

/** Adds an alert at `price`; false when the price is invalid or the pair already has it. */
export function addAlert(pair: string, price: number): boolean {
  if (!validAlertPrice(price)) return false;
  const list = alerts.byPair[pair];
  if (list?.includes(price)) return false;
  if (list) list.push(price);
  else alerts.byPair[pair] = [price];
  return true;
}

/** Removes the pair's alert at `price`; false when there was none. */
export function removeAlert(pair: string, price: number): boolean {
  const list = alerts.byPair[pair];
  const at = list ? list.indexOf(price) : -1;
  if (!list || at < 0) return false;
  list.splice(at, 1);
  if (list.length === 0) delete alerts.byPair[pair];
  return true;
}

/** Removes the alert named by its key (`index:price`), checking that both parts still match. */
export function removeAlertByKey(pair: string, key: string): boolean {
  const alert = parseAlertKey(key);
  if (!alert || alerts.byPair[pair]?.[alert.index] !== alert.price) return false;
  return removeAlert(pair, alert.price);
}

/** Forgets every alert and every last price (tests, sign-out). */
export function resetAlerts(): void {
  alerts.byPair = {};
  lastSeen.clear();
}

/**
 * Feeds the pair's last price. Every alert whose level lies between the previous price (exclusive)
 * and this one (inclusive) fires once and is removed. Returns the triggered prices.
 */
export function checkAlerts(pair: string, price: number): number[] {
  if (!Number.isFinite(price)) return [];
  const prev = lastSeen.get(pair);
  lastSeen.set(pair, price);
  const list = alerts.byPair[pair];
  if (prev === undefined || prev === price || !list || list.length === 0) return [];
  const rising = price > prev;
  const hit = list.filter((level) => (rising ? level > prev && level <= price : level < prev && level >= price));
  for (const level of hit) {
    removeAlert(pair, level);
    const levelText = toSignificant(level);
    const priceText = toSignificant(price);
    notify({
      level: "info",
      kind: "main",
      text: rising
        ? t`Price alert: ${pair} rose to ${priceText}, crossing ${levelText}`
        : t`Price alert: ${pair} fell to ${priceText}, crossing ${levelText}`,
    });
  }
  return hit;
}

/** The stored form: pair → alert keys. Anything malformed is dropped, duplicates are dropped. */
export function applyStoredAlerts(stored: unknown): number {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return 0;
  const next: Record<string, number[]> = {};
  let applied = 0;
  for (const [pair, keys] of Object.entries(stored)) {
    if (!Array.isArray(keys)) continue;
    const prices: number[] = [];
    // Keys are ordered by their index, whatever order the array came in.
    const parsed = keys
      .map((k) => (typeof k === "string" ? parseAlertKey(k) : null))
      .filter((a): a is PriceAlert => a !== null)
      .sort((a, b) => a.index - b.index);
    for (const a of parsed) {
      if (prices.includes(a.price)) continue;
      prices.push(a.price);
      applied++;
    }
    if (prices.length > 0) next[pair] = prices;
  }
  alerts.byPair = next;
  return applied;
}

function storedForm(): Record<string, string[]> {
  const snap = snapshot(alerts);
  const out: Record<string, string[]> = {};
  for (const pair of Object.keys(snap.byPair)) out[pair] = alertKeysOf(pair, snap);
  return out;
}

/** Loads stored alerts, then writes every change back; the returned function stops (with a final write). */
export async function hydrateAndPersistAlerts(): Promise<() => Promise<void>> {
  try {
    applyStoredAlerts(await get(ALERTS_STORAGE_KEY));
  } catch (err) {
    log.error("price alerts could not be read from IndexedDB", err);
  }
  const write = (): Promise<void> => {
    const form = storedForm();
    const op = Object.keys(form).length === 0 ? del(ALERTS_STORAGE_KEY) : set(ALERTS_STORAGE_KEY, form);
    return op.catch((err: unknown) => log.error("price alerts could not be saved to IndexedDB", err));
  };
  const unsubscribe = subscribe(alerts, () => void write());
  return async () => {
    unsubscribe();
    await write();
  };
}

/** What `watchAlerts` needs of the market bridge (injected so it tests without a worker). */
export interface TickerSource {
  ticker(symbol: string, onView: (view: TickerView) => void, signal: AbortSignal): Promise<void>;
}

/**
 * Checks alerts even when no chart shows the pair: one ticker stream per pair that has alerts,
 * opened and closed as alerts come and go. Returns the stop function.
 */
export function watchAlerts(source: TickerSource): () => void {
  const streams = new Map<string, AbortController>();
  const sync = (): void => {
    const pairs = new Set(Object.keys(alerts.byPair).filter((p) => (alerts.byPair[p]?.length ?? 0) > 0));
    for (const [pair, controller] of streams)
      if (!pairs.has(pair)) {
        controller.abort();
        streams.delete(pair);
      }
    for (const pair of pairs) {
      if (streams.has(pair)) continue;
      const controller = new AbortController();
      streams.set(pair, controller);
      const onView = (view: TickerView): void => {
        if (view.ticker) checkAlerts(pair, view.ticker.lastPrice);
      };
      source.ticker(tradingSymbol(pair), onView, controller.signal).catch((err: unknown) => {
        log.warn("alert ticker failed", pair, err);
      });
    }
  };
  sync();
  const unsubscribe = subscribe(alerts, sync);
  return () => {
    unsubscribe();
    for (const controller of streams.values()) controller.abort();
    streams.clear();
  };
}
