/**
 * The user settings store: a valtio proxy of UserSettings, persisted in IndexedDB through idb-keyval.
 * Low-rate UI state only (HOUSE-STYLE 8). Writes are debounced (SPEC section 9: 1000 ms in
 * production, 350 ms otherwise) and flushed on page hide so nothing is lost on reload.
 */
import { get, set } from "idb-keyval";
import { proxy, snapshot, subscribe } from "valtio";
import { UPDATE_DEBOUNCE_DEV_MS, UPDATE_DEBOUNCE_PROD_MS } from "../../protocol";
import { log } from "../log";
import type { Cancel, Timers } from "../scheduler";
import { acceptSetting, DEFAULT_SETTINGS, type SettingKey, type UserSettings } from "./schema";

export const SETTINGS_STORAGE_KEY = "user-settings";

function freshDefaults(): UserSettings {
  return structuredClone(DEFAULT_SETTINGS) as UserSettings;
}

export const settings: UserSettings = proxy(freshDefaults());

/**
 * Sets one setting; returns false (and changes nothing) when the value is refused by its bound.
 */
export function updateSetting<K extends SettingKey>(key: K, value: UserSettings[K] | unknown): boolean {
  if (!acceptSetting(key, value)) {
    log.warn("setting refused", key, value);
    return false;
  }
  const next = (typeof value === "object" && value !== null ? structuredClone(value) : value) as UserSettings[K];
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

export interface PersistOptions {
  readonly timers: Timers;
  readonly production: boolean;
}

/** Loads stored settings, then writes every later change back, debounced. Returns a stop function. */
export async function hydrateAndPersistSettings(options: PersistOptions): Promise<() => Promise<void>> {
  try {
    applyStoredSettings(await get(SETTINGS_STORAGE_KEY));
  } catch (err) {
    log.error("settings could not be read from IndexedDB", err);
  }
  const delay = options.production ? UPDATE_DEBOUNCE_PROD_MS : UPDATE_DEBOUNCE_DEV_MS;
  let pending: Cancel | null = null;
  const write = async (): Promise<void> => {
    pending?.();
    pending = null;
    try {
      await set(SETTINGS_STORAGE_KEY, snapshot(settings));
    } catch (err) {
      log.error("settings could not be saved to IndexedDB", err);
    }
  };
  // Leading and trailing edge: a lone change (a click in the shell) is written at once, so a reload
  // right after it keeps it; a burst (a dragged slider) is coalesced into one trailing write.
  let lastWrite = -Infinity;
  const unsubscribe = subscribe(settings, () => {
    if (pending) return;
    const now = options.timers.now();
    if (now - lastWrite >= delay) {
      lastWrite = now;
      void write();
      return;
    }
    pending = options.timers.after(delay - (now - lastWrite), () => {
      pending = null;
      lastWrite = options.timers.now();
      void write();
    });
  });
  return async () => {
    unsubscribe();
    // valtio notifies per microtask, so a change made just before stopping may not have reached
    // the subscriber yet: always write the final state.
    await write();
  };
}

/** Writes pending changes now (page hide, before a reload). */
export async function flushSettings(): Promise<void> {
  await set(SETTINGS_STORAGE_KEY, snapshot(settings));
}
