/**
 * The derivatives status widget's framework-free core: which perpetual a desk shows, the status row
 * read once through src/protocol's codec, the funding countdown, and a store that hands React at
 * most one snapshot a second however often the `status` channel publishes (the exchange re-sends
 * the row about every second and the worker throttles it to 4 views a second; the countdown needs
 * a second's resolution, nothing more).
 */
import {
  DEFAULT_DERIVATIVE_PAIR,
  derivStatusCodec,
  isDerivativePair,
  splitPair,
  type ChannelStatus,
  type DerivStatus,
  type StatusView,
} from "../../../../protocol";

/** The collateral currency of the perpetuals (USDt in its derivatives form). */
const PERPETUAL_QUOTE = "USTF0";

/**
 * The perpetual a desk on `pair` shows: the pair itself on a derivative desk; else the perpetual of
 * the pair's base asset when the exchange lists one (`BTCUSD` → `BTCF0:USTF0`); else the default
 * perpetual. `listed` is the exchange's pair list, null while unknown.
 */
export function perpetualFor(pair: string, listed: ReadonlySet<string> | null): string {
  if (isDerivativePair(pair)) return pair;
  const base = splitPair(pair)?.base;
  if (base !== undefined && listed !== null) {
    const candidate = `${base}F0:${PERPETUAL_QUOTE}`;
    if (listed.has(candidate)) return candidate;
  }
  return DEFAULT_DERIVATIVE_PAIR;
}

/** The status channel's key for a pair (`deriv:tBTCF0:USTF0`). */
export function statusKey(pair: string): string {
  return `deriv:t${pair}`;
}

/**
 * The status row from a view's payload: the channel keeps the latest frame as received, a row of
 * numbers; a malformed or empty one (the exchange's `[]` before it has prices) is no status.
 */
export function readDerivStatus(payload: unknown): DerivStatus | null {
  if (!Array.isArray(payload) || payload.length === 0) return null;
  const d = derivStatusCodec.decode(payload);
  return d.ok ? d.value : null;
}

/** `HH:MM:SS` until `target` (ms); `00:00:00` once it has passed; null when unknown. */
export function countdown(target: number | null, now: number): string | null {
  if (target === null || !Number.isFinite(target)) return null;
  const total = Math.max(0, Math.floor((target - now) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number): string => String(n).padStart(2, "0");
  return `${two(h)}:${two(m)}:${two(s)}`;
}

/**
 * A funding rate (a fraction per funding period) as a percent with enough places for the small
 * rates perpetuals have (0.0001 → "0.0100%"); "—" when unknown.
 */
export function fundingPercent(rate: number | null): string {
  return rate === null ? "—" : `${(rate * 100).toFixed(4)}%`;
}

export interface DerivSnapshot {
  readonly status: DerivStatus | null;
  readonly channel: ChannelStatus | "NONE";
  /** The clock when this snapshot was made, for the countdown. */
  readonly now: number;
}

/** How often the widget re-renders: the countdown's resolution. */
export const DERIV_REFRESH_MS = 1000;

/**
 * Latest status in, one snapshot a second out (a `useSyncExternalStore` source). Views only
 * replace the held row; `tick`, called every DERIV_REFRESH_MS by the owner's timer, publishes, so
 * a burst of views costs no render.
 */
export class DerivStatusStore {
  #latest: DerivStatus | null = null;
  #channel: ChannelStatus | "NONE" = "NONE";
  #snapshot: DerivSnapshot;
  #dirty = false;
  readonly #listeners = new Set<() => void>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
    this.#snapshot = { status: null, channel: "NONE", now: now() };
  }

  /** Takes a view from the status channel; the first row shows at once, later ones on the next tick. */
  observe(view: Pick<StatusView, "payload" | "status">): void {
    const next = readDerivStatus(view.payload);
    const first = this.#latest === null && next !== null;
    if (next !== null) this.#latest = next;
    if (view.status !== this.#channel) {
      this.#channel = view.status;
      this.#dirty = true;
    }
    if (next !== null) this.#dirty = true;
    if (first) this.tick();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): DerivSnapshot => this.#snapshot;

  tick(): void {
    // The countdown moves every second even when the row does not.
    if (!this.#dirty && this.#snapshot.status === null) return;
    this.#dirty = false;
    this.#snapshot = { status: this.#latest, channel: this.#channel, now: this.#now() };
    for (const l of this.#listeners) l();
  }
}
