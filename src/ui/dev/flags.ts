/**
 * Developer flags (docs/product-rules.md#developer-flags): toggling a flag pins it (it stays on
 * across reloads), closing it removes it. Kept in localStorage, which is per-device developer
 * state, not a user setting. The panel opens with Ctrl+Shift+D or `?dev=1`.
 */
import { proxy, subscribe } from "valtio";
import { STRESS_INTENSITIES, type StressSetting } from "../../protocol";

export const DEV_FLAG_NAMES = ["stress"] as const;
export type DevFlagName = (typeof DEV_FLAG_NAMES)[number];

export const STRESS_MULTIPLIERS = [1, 10, 100, 1000] as const;

export interface DevFlagsState {
  open: boolean;
  /** Pinned flags and whether each is on. A flag absent from the map is not pinned. */
  pinned: Partial<Record<DevFlagName, boolean>>;
  /** Index into STRESS_INTENSITIES. */
  stressIntensity: number;
  stressMultiplier: number;
}

const KEY = "dev-flags";

function load(): DevFlagsState {
  const fallback: DevFlagsState = { open: false, pinned: {}, stressIntensity: 3, stressMultiplier: 1 };
  try {
    const raw = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? "null") as Partial<DevFlagsState> | null;
    if (!raw || typeof raw !== "object") return fallback;
    return {
      open: raw.open === true,
      pinned: typeof raw.pinned === "object" && raw.pinned !== null ? raw.pinned : {},
      stressIntensity: Number.isInteger(raw.stressIntensity)
        ? Math.min(3, Math.max(0, raw.stressIntensity as number))
        : 3,
      stressMultiplier: (STRESS_MULTIPLIERS as readonly number[]).includes(raw.stressMultiplier as number)
        ? (raw.stressMultiplier as number)
        : 1,
    };
  } catch {
    return fallback;
  }
}

export const devFlags = proxy<DevFlagsState>(load());

subscribe(devFlags, () => {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(devFlags));
  } catch {
    // Storage unavailable: flags last for this page.
  }
});

/** Toggling pins the flag (on/off, kept across reloads). */
export function toggleFlag(flag: DevFlagName): void {
  devFlags.pinned[flag] = !(devFlags.pinned[flag] ?? false);
}

/** Closing removes the flag (unpinned, off). */
export function closeFlag(flag: DevFlagName): void {
  delete devFlags.pinned[flag];
}

export function flagOn(state: Pick<DevFlagsState, "pinned">, flag: DevFlagName): boolean {
  return state.pinned[flag] === true;
}

/** The stress setting the flags ask for, or null when the stress flag is off. */
export function stressSetting(state: DevFlagsState): StressSetting | null {
  if (!flagOn(state, "stress")) return null;
  const base = STRESS_INTENSITIES[state.stressIntensity] ?? STRESS_INTENSITIES[3];
  if (!base) return null;
  return { intervalMs: base.intervalMs, count: base.count * state.stressMultiplier };
}

/** True when the URL asks for the developer panel. */
export function devRequested(search: string): boolean {
  return new URLSearchParams(search).get("dev") === "1";
}
