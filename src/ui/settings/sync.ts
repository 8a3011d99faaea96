/**
 * The user settings follow the person across devices (docs/product-rules.md#settings-across-devices):
 * while signed in, every setting chosen here is stamped with the time it was chosen and sent to the
 * exchange (one key per setting, src/protocol/settings-sync.ts), and the exchange's copy is read at
 * sign-in, when the tab is shown again and every two minutes while it is shown; key by key, the
 * change made last wins. The tabs of one browser already share changes at once (store.ts); this is
 * the slower path between devices, so a failed call only waits for the next round.
 */
import { get, set } from "idb-keyval";
import { snapshot, subscribe } from "valtio";
import { subscribeKey } from "valtio/utils";
import {
  decodeStampedSetting,
  encodeStampedSetting,
  NOTIFICATION_PREF_KEYS,
  planSettingsSync,
  syncedSettingKey,
  type StampedSetting,
} from "../../protocol";
import { log } from "../log";
import { readSettings, writeSettings, type AuthCall } from "../notifications/api";
import { appScheduler } from "../scheduler";
import { DEFAULT_SETTINGS, type SettingKey } from "./schema";
import { settings, updateSetting } from "./store";

/** Where this device keeps when each setting was last chosen here. */
export const SETTING_STAMPS_KEY = "user-settings-stamps";
/** A change is sent once the person has stopped changing things for this long. */
export const SETTINGS_SEND_DEBOUNCE_MS = 1000;
/** How often a shown tab reads the exchange's copy (the session's own user-info period). */
export const SETTINGS_PULL_MS = 120_000;

/**
 * Settings that describe this device rather than the person: the system's colour mode, whether the
 * notifications panel is open here, the grid format's version. The notification preferences have
 * their own keys at the exchange, which the exchange reads itself before mailing
 * (src/ui/notifications/prefs.ts), and are kept there.
 */
const DEVICE_ONLY: ReadonlySet<string> = new Set<string>([
  "browser_theme_mode",
  "notifications_sidebar_visible",
  "grid_config_version",
  "theme_with_mode",
  ...NOTIFICATION_PREF_KEYS,
]);

export const SYNCED_SETTINGS: readonly SettingKey[] = (Object.keys(DEFAULT_SETTINGS) as SettingKey[]).filter(
  (k) => !DEVICE_ONLY.has(k),
);

const text = (v: unknown): string => JSON.stringify(v);

export interface SettingsSyncDeps {
  readonly call: AuthCall;
  /** The signed-in user, null when signed out; a change of user starts a round. */
  readonly user: { readonly current: () => number | null; readonly watch: (fn: () => void) => () => void };
  /** The document whose visibility paces the reads (absent in tests). */
  readonly doc?: Pick<Document, "visibilityState" | "addEventListener" | "removeEventListener">;
  readonly now: () => number;
}

/** Starts syncing; returns the stop function. */
export async function syncSettingsWithExchange(deps: SettingsSyncDeps): Promise<() => void> {
  const stamps = new Map<string, number>();
  try {
    const stored: unknown = await get(SETTING_STAMPS_KEY);
    if (typeof stored === "object" && stored !== null)
      for (const [k, t] of Object.entries(stored)) if (typeof t === "number" && Number.isFinite(t)) stamps.set(k, t);
  } catch (err) {
    log.warn("setting times could not be read from IndexedDB", err);
  }
  const timers = appScheduler.child();
  // The value each setting had when last looked at: a change is a difference from it. Values the
  // sync applies itself are recorded here first, so they are not taken for a choice made here.
  const known = new Map<string, string>();
  for (const key of SYNCED_SETTINGS) known.set(key, text(settings[key]));
  let stopped = false;

  const saveStamps = (): void => {
    void set(SETTING_STAMPS_KEY, Object.fromEntries(stamps)).catch((err: unknown) =>
      log.warn("setting times could not be saved to IndexedDB", err),
    );
  };

  let running: Promise<void> | null = null;
  let again = false;
  /** One read-merge-write round; rounds never overlap (a request during one runs after it). */
  const round = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = runRound().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        round();
      }
    });
  };

  const runRound = async (): Promise<void> => {
    if (deps.user.current() === null) return;
    const remoteReply = await readSettings(deps.call, SYNCED_SETTINGS.map(syncedSettingKey));
    if (!remoteReply.ok || stopped) {
      if (!remoteReply.ok) log.warn("settings could not be read from the exchange", remoteReply.error.kind);
      return;
    }
    const remote = new Map<string, StampedSetting>();
    for (const key of SYNCED_SETTINGS) {
      const s = decodeStampedSetting(remoteReply.value.get(syncedSettingKey(key)));
      if (s) remote.set(key, s);
    }
    const current = snapshot(settings) as Readonly<Record<string, unknown>>;
    const local = new Map<string, StampedSetting & { chosen: boolean }>();
    for (const key of SYNCED_SETTINGS) {
      const value = current[key];
      const stamp = stamps.get(key);
      // Only a value chosen here since syncing began is offered to other devices: an unstamped one
      // may be this device's own default (the browser's language, the variant's currency), which
      // must not travel as if someone had chosen it.
      local.set(key, { value, changedAt: stamp ?? 0, chosen: stamp !== undefined });
    }
    const plan = planSettingsSync(local, remote);
    for (const [key, s] of plan.apply) {
      if (!updateSetting(key as SettingKey, s.value)) continue;
      known.set(key, text(settings[key as SettingKey]));
      stamps.set(key, s.changedAt);
    }
    if (plan.apply.size > 0) saveStamps();
    const send: Record<string, unknown> = {};
    for (const [key, s] of plan.send) send[syncedSettingKey(key)] = encodeStampedSetting(s);
    if (Object.keys(send).length === 0) return;
    // A refused or failed write is planned again next round (this device's stamp is still newer).
    const sent = await writeSettings(deps.call, send);
    if (!sent.ok) log.warn("settings could not be saved to the exchange", sent.error.kind);
  };

  let pendingSend: (() => void) | null = null;
  const unsubscribe = subscribe(settings, () => {
    let changed = false;
    for (const key of SYNCED_SETTINGS) {
      const now = text(settings[key]);
      if (known.get(key) === now) continue;
      known.set(key, now);
      stamps.set(key, deps.now());
      changed = true;
    }
    if (!changed) return;
    saveStamps();
    pendingSend?.();
    pendingSend = timers.after(SETTINGS_SEND_DEBOUNCE_MS, () => {
      pendingSend = null;
      round();
    });
  });

  const shown = (): boolean => deps.doc === undefined || deps.doc.visibilityState === "visible";
  const onVisibility = (): void => {
    if (shown()) round();
  };
  deps.doc?.addEventListener("visibilitychange", onVisibility);
  timers.every(SETTINGS_PULL_MS, () => {
    if (shown()) round();
  });
  const unwatch = deps.user.watch(() => round());
  round();

  return () => {
    stopped = true;
    unsubscribe();
    unwatch();
    deps.doc?.removeEventListener("visibilitychange", onVisibility);
    timers.dispose();
  };
}

/** The boot wiring: the session's user and authenticated calls, the page's visibility. */
export function startSettingsSync(
  doc: Document,
  call: AuthCall,
  session: { readonly userId: number | null },
): Promise<() => void> {
  return syncSettingsWithExchange({
    call,
    doc,
    now: () => appScheduler.now(),
    user: {
      current: () => session.userId,
      watch: (fn) => subscribeKey(session, "userId", fn),
    },
  });
}
