/**
 * The user settings across devices (docs/product-rules.md#settings-across-devices): each synced
 * setting is stored at the exchange under its own key, `api:ui:{key}`, as `{v: value, t: mts}` —
 * the value and when it was last changed on the device that changed it. Devices merge key by key:
 * the change made last wins, wherever it was made. One key per setting (not one object for all)
 * lets the exchange's settings update, which merges top-level keys, write two devices' changes to
 * different settings without either overwriting the other.
 */

/** Keys the exchange accepts from a client for its own use carry the `api:` prefix. */
export const SYNCED_SETTING_PREFIX = "api:ui:";

export function syncedSettingKey(key: string): string {
  return SYNCED_SETTING_PREFIX + key;
}

/** A setting's value and when it was last changed on the device that changed it (ms since epoch). */
export interface StampedSetting {
  readonly value: unknown;
  readonly changedAt: number;
}

/** The stored form of a stamped setting; null for anything that is not one (left alone). */
export function decodeStampedSetting(raw: unknown): StampedSetting | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const t = r["t"];
  if (!("v" in r) || typeof t !== "number" || !Number.isFinite(t) || t < 0) return null;
  return { value: r["v"], changedAt: t };
}

export function encodeStampedSetting(s: StampedSetting): { readonly v: unknown; readonly t: number } {
  return { v: s.value, t: s.changedAt };
}

export interface SettingsSyncPlan {
  /** Settings whose exchange copy is newer: apply here. */
  readonly apply: ReadonlyMap<string, StampedSetting>;
  /** Settings whose copy here is newer (or the exchange has none of a choice made here): send. */
  readonly send: ReadonlyMap<string, StampedSetting>;
}

/**
 * Merges this device's settings with the exchange's copy, key by key: the later `changedAt` wins;
 * at equal times the larger JSON text wins, so every device settles on the same value whichever
 * syncs first. A local value that was not chosen here (`chosen` false: a default of this device)
 * is never sent, and yields to any value the exchange holds.
 */
export function planSettingsSync(
  local: ReadonlyMap<string, StampedSetting & { readonly chosen: boolean }>,
  remote: ReadonlyMap<string, StampedSetting>,
): SettingsSyncPlan {
  const apply = new Map<string, StampedSetting>();
  const send = new Map<string, StampedSetting>();
  for (const [key, mine] of local) {
    const theirs = remote.get(key);
    if (theirs === undefined) {
      if (mine.chosen) send.set(key, mine);
      continue;
    }
    const same = JSON.stringify(mine.value) === JSON.stringify(theirs.value);
    if (same) continue;
    if (!mine.chosen || theirs.changedAt > mine.changedAt) apply.set(key, theirs);
    else if (mine.changedAt > theirs.changedAt) send.set(key, mine);
    else if (JSON.stringify(theirs.value) > JSON.stringify(mine.value)) apply.set(key, theirs);
    else send.set(key, mine);
  }
  return { apply, send };
}
