/**
 * The user settings store: a valtio proxy of UserSettings, persisted in IndexedDB through idb-keyval.
 * Low-rate UI state only: settings change when the user acts, never per market tick.
 */
import { get, set } from "idb-keyval";
import { proxy, snapshot, subscribe } from "valtio";
import { log } from "../log";
import { acceptSetting, DEFAULT_SETTINGS, type SettingKey, type UserSettings } from "./schema";

export const SETTINGS_STORAGE_KEY = "user-settings";

function freshDefaults(): UserSettings {
  return structuredClone(DEFAULT_SETTINGS);
}

export const settings: UserSettings = proxy(freshDefaults());

/**
 * Sets one setting; returns false (and changes nothing) when the value is refused by its bound.
 */
export function updateSetting<K extends SettingKey>(key: K, value: unknown): boolean {
  if (!acceptSetting(key, value)) {
    log.warn("setting refused", key, value);
    return false;
  }
  const next = typeof value === "object" && value !== null ? structuredClone(value) : value;
  settings[key] = next;
  if (key === "theme" || key === "theme_mode") settings.theme_with_mode = `${settings.theme}:${settings.theme_mode}`;
  return true;
}

/** Applies a stored object key by key, with the same bounds: a corrupt entry keeps its default. */
export function applyStoredSettings(stored: unknown): number {
  if (typeof stored !== "object" || stored === null) return 0;
  let applied = 0;
  for (const [key, value] of Object.entries(stored)) {
    if (!(key in DEFAULT_SETTINGS)) continue;
    if (updateSetting(key as SettingKey, value)) applied++;
  }
  return applied;
}

export function resetSettings(): void {
  Object.assign(settings, freshDefaults());
}

/**
 * Loads stored settings, then writes every later change back. Writes are not debounced: valtio
 * already batches a burst of mutations into one notification per microtask, and IndexedDB applies
 * transactions in order, so the stored copy is never older than the last paint. (A debounced local
 * write lost a theme change made just before a reload; the product's update debounce belongs to the
 * server-side settings sync, where requests cost something.)
 */
export async function hydrateAndPersistSettings(): Promise<() => Promise<void>> {
  try {
    applyStoredSettings(await get(SETTINGS_STORAGE_KEY));
  } catch (err) {
    log.error("settings could not be read from IndexedDB", err);
  }
  const stopSharing =
    typeof BroadcastChannel === "undefined" ? () => {} : shareWithOtherTabs(new BroadcastChannel(TABS_CHANNEL));
  let last: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    last = set(SETTINGS_STORAGE_KEY, snapshot(settings)).catch((err: unknown) => {
      log.error("settings could not be saved to IndexedDB", err);
    });
    return last;
  };
  const unsubscribe = subscribe(settings, () => void write());
  return async () => {
    stopSharing();
    unsubscribe();
    // A change made just before stopping may not have reached the subscriber yet (valtio
    // notifies per microtask): write the final state.
    await write();
  };
}

/** The channel the tabs of one browser tell each other their settings changes on. */
export const TABS_CHANNEL = "user-settings";

/** The parts of a BroadcastChannel used (a fake in tests). */
export interface TabChannel {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (e: { readonly data: unknown }) => void): void;
  close(): void;
}

/**
 * Keeps the tabs of one browser in step (docs/product-rules.md#settings-across-tabs): every change
 * made here goes to the other tabs at once as `{key: value}`, and theirs are applied here through
 * the same bounds. Every tab writes its whole copy to IndexedDB, so without this a tab still holding
 * an old value would write it back over the change another tab made; the last change made in any
 * tab wins. A change that came from another tab is not sent on again.
 */
export function shareWithOtherTabs(channel: TabChannel): () => void {
  // What the other tabs were last told (or told us), per key: a notification sends the keys whose
  // value differs from it. Settings change when a person acts, so comparing ~150 small values then
  // costs nothing worth a finer bookkeeping.
  const known = new Map<string, string>();
  const texts = (): [string, string, unknown][] =>
    Object.entries(snapshot(settings)).map(([k, v]) => [k, JSON.stringify(v), v]);
  for (const [k, text] of texts()) known.set(k, text);
  channel.addEventListener("message", (e) => {
    if (typeof e.data !== "object" || e.data === null) return;
    for (const [key, value] of Object.entries(e.data)) {
      if (!(key in DEFAULT_SETTINGS)) continue;
      // Applied through the bounds; once applied, the other tabs already hold it: not sent back.
      if (updateSetting(key as SettingKey, value)) known.set(key, JSON.stringify(settings[key as SettingKey]));
    }
  });
  const unsubscribe = subscribe(settings, () => {
    const changed: Record<string, unknown> = {};
    let any = false;
    for (const [key, text, value] of texts()) {
      if (known.get(key) === text) continue;
      known.set(key, text);
      changed[key] = value;
      any = true;
    }
    if (any) channel.postMessage(changed);
  });
  return () => {
    unsubscribe();
    channel.close();
  };
}
