/**
 * The notification preferences, kept in two places on purpose: the settings store (this device,
 * what the desk reads every time it would show a toast or play its sound — src/ui/desk/notices.ts)
 * and the exchange's settings (`users.settings`), which the exchange itself reads before a deposit
 * or withdrawal mail and which follow the person to another device. The exchange's copy wins when
 * the page loads; a change is made here at once (the desk honours it without waiting) and undone
 * if the exchange refuses it, so the two never disagree for longer than one call.
 */
import { isNotificationPrefKey, NOTIFICATION_PREF_KEYS, type NotificationPrefKey } from "../../protocol";
import { settings, updateSetting } from "../settings/store";
import { readSettings, writeSettings, type AuthCall, type Result } from "./api";

/** The exchange's stored values applied to this device; a value its bound refuses is ignored. */
function applyStoredPrefs(stored: ReadonlyMap<string, unknown>): number {
  let applied = 0;
  for (const [key, value] of stored)
    if (isNotificationPrefKey(key) && typeof value === "boolean" && updateSetting(key, value)) applied++;
  return applied;
}

/** Reads the exchange's copy and applies it; how many values it held. */
export async function pullNotificationPrefs(call: AuthCall): Promise<Result<number>> {
  const r = await readSettings(call, NOTIFICATION_PREF_KEYS);
  return r.ok ? { ok: true, value: applyStoredPrefs(r.value) } : r;
}

/**
 * Turns one preference on or off: here at once, then on the exchange; when the exchange refuses
 * or cannot be reached the old value comes back and the error is returned.
 */
export async function setNotificationPref(
  call: AuthCall,
  key: NotificationPrefKey,
  value: boolean,
): Promise<Result<true>> {
  const before = settings[key];
  updateSetting(key, value);
  const r = await writeSettings(call, { [key]: value });
  // Undone only if nothing changed it since: a later click's value stands.
  if (!r.ok && settings[key] === value) updateSetting(key, before);
  return r;
}
