/**
 * Developer flags (docs/product-rules.md#developer-flags): toggling a flag pins it (it stays on
 * across reloads), closing it removes it. Kept in localStorage, which is per-device developer
 * state, not a user setting. The panel opens with Ctrl+Shift+D or `?dev=1`.
 */
import { proxy, subscribe } from "valtio";
import { NO_FAULTS, STRESS_INTENSITIES, type FaultSettings, type StressSetting } from "../../protocol";

export const DEV_FLAG_NAMES = ["stress", "faults"] as const;
export type DevFlagName = (typeof DEV_FLAG_NAMES)[number];

export const STRESS_MULTIPLIERS = [1, 10, 100, 1000] as const;

export interface DevFlagsState {
  open: boolean;
  /** Pinned flags and whether each is on. A flag absent from the map is not pinned. */
  pinned: Partial<Record<DevFlagName, boolean>>;
  /** Index into STRESS_INTENSITIES. */
  stressIntensity: number;
  stressMultiplier: number;
  /** What the faults flag injects into the public feed when it is on. */
  faults: FaultSettings;
}

/** The fault kinds with a rate, in the order the panel lists them. */
export const FAULT_RATES = ["drop", "delay", "duplicate", "reorder", "corrupt", "loseSubscribed"] as const;
export type FaultRate = (typeof FAULT_RATES)[number];
/** Rates offered in the panel (0 = off). */
export const FAULT_RATE_CHOICES = [0, 0.01, 0.05, 0.2, 0.5, 1] as const;

/** The panel starts with no fault, and a delay of 500 ms ready for when "delay" is given a rate. */
export const DEFAULT_FAULTS: FaultSettings = { ...NO_FAULTS, delayMs: 500 };

/** Keeps only well-formed fields of stored or typed settings (rates in [0, 1]). */
export function cleanFaults(raw: unknown): FaultSettings {
  const r = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const rate = (v: unknown): number => (typeof v === "number" && v >= 0 && v <= 1 ? v : 0);
  const int = (v: unknown, lo: number, hi: number, d: number): number =>
    typeof v === "number" && Number.isInteger(v) && v >= lo && v <= hi ? v : d;
  return {
    drop: rate(r["drop"]),
    delay: rate(r["delay"]),
    delayMs: int(r["delayMs"], 0, 60_000, DEFAULT_FAULTS.delayMs),
    duplicate: rate(r["duplicate"]),
    reorder: rate(r["reorder"]),
    corrupt: rate(r["corrupt"]),
    loseSubscribed: rate(r["loseSubscribed"]),
    freeze: r["freeze"] === true,
    seed: int(r["seed"], 0, 2 ** 32 - 1, DEFAULT_FAULTS.seed),
  };
}

/**
 * The `?faults=` URL flag: comma-separated `kind:rate` items (`drop:0.05,corrupt:0.01`),
 * `delay:0.2:800` for a rate and a delay in ms, `lose-subscribed:1`, `freeze`, `seed:7`. Null
 * when absent or when nothing in it parses.
 */
export function faultsFromUrl(search: string): FaultSettings | null {
  const text = new URLSearchParams(search).get("faults");
  if (text === null) return null;
  const out: Record<string, unknown> = { ...DEFAULT_FAULTS };
  let any = false;
  for (const item of text.split(",")) {
    const [kind = "", a, b] = item.trim().split(":");
    const name = kind === "lose-subscribed" ? "loseSubscribed" : kind;
    if (name === "freeze") {
      out["freeze"] = true;
      any = true;
    } else if (name === "seed" && a !== undefined && /^\d+$/.test(a)) {
      out["seed"] = Number(a);
    } else if ((FAULT_RATES as readonly string[]).includes(name) && a !== undefined && /^(0|1|0?\.\d+)$/.test(a)) {
      out[name] = Number(a);
      if (name === "delay" && b !== undefined && /^\d+$/.test(b)) out["delayMs"] = Number(b);
      any = true;
    }
  }
  return any ? cleanFaults(out) : null;
}

/** The faults the flags ask for, or null when the faults flag is off. */
export function faultSettings(state: Pick<DevFlagsState, "pinned" | "faults">): FaultSettings | null {
  return flagOn(state, "faults") ? state.faults : null;
}

const KEY = "dev-flags";

function load(): DevFlagsState {
  const fallback: DevFlagsState = {
    open: false,
    pinned: {},
    stressIntensity: 3,
    stressMultiplier: 1,
    faults: DEFAULT_FAULTS,
  };
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
      faults: cleanFaults(raw.faults),
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
