/**
 * What a screen of balances needs from the rates: every currency it shows in one unit (the total
 * equivalent currency, or bitcoin in bitcoin view), kept fresh. A screen says what it wants
 * (`want`); the book asks FxRates for those pairs in one batch, publishes an immutable snapshot,
 * and asks again when the rates' cache time has passed — one snapshot per refresh, so React
 * renders at the rates' pace, never per tick. Framework-free: timers are injected.
 */
import { RATE_CACHE_TTL_MS, type Timers } from "../../protocol";
import { rateKey, type FxRates } from "./fx-rates";

export interface RatesSnapshot {
  readonly unit: string;
  /** Currency → the value of one unit of it in `unit`; a currency without a rate is absent. */
  readonly rates: ReadonlyMap<string, number>;
  /** True until the first answer for the current wants. */
  readonly loading: boolean;
}

export class RatesBook {
  readonly #fx: FxRates;
  readonly #timers: Timers;
  #currencies: readonly string[] = [];
  #unit = "";
  #snapshot: RatesSnapshot = { unit: "", rates: new Map(), loading: true };
  readonly #listeners = new Set<() => void>();
  #refresh: (() => void) | null = null;
  /** Bumped by every want: an answer for older wants is dropped. */
  #generation = 0;

  constructor(fx: FxRates, timers: Timers) {
    this.#fx = fx;
    this.#timers = timers;
  }

  readonly subscribe = (fn: () => void): (() => void) => {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  };

  readonly snapshot = (): RatesSnapshot => this.#snapshot;

  /** The currencies to value and the unit to value them in; asks at once when they changed. */
  want(currencies: readonly string[], unit: string): void {
    const sorted = [...new Set(currencies)].sort();
    if (unit === this.#unit && sorted.join() === this.#currencies.join()) return;
    const unitChanged = unit !== this.#snapshot.unit;
    this.#currencies = sorted;
    this.#unit = unit;
    if (unitChanged) this.#publish({ unit, rates: new Map([[unit, 1]]), loading: true });
    void this.#load();
  }

  /**
   * Stops asking (the screen went away): the pending refresh is cancelled and an answer still in
   * flight is dropped. A later `want` starts again.
   */
  stop(): void {
    this.#generation++;
    this.#refresh?.();
    this.#refresh = null;
    this.#currencies = [];
    this.#unit = "";
  }

  async #load(): Promise<void> {
    const generation = ++this.#generation;
    this.#refresh?.();
    this.#refresh = null;
    const unit = this.#unit;
    const pairs = this.#currencies.filter((c) => c !== unit).map((c) => ({ from: c, to: unit }));
    const got = await this.#fx.rates(pairs);
    if (generation !== this.#generation) return;
    const rates = new Map<string, number>([[unit, 1]]);
    for (const p of pairs) {
      const r = got.get(rateKey(p.from, p.to));
      if (r !== undefined) rates.set(p.from, r);
    }
    this.#publish({ unit, rates, loading: false });
    // Asked again once the cache no longer holds them: the values follow the markets.
    this.#refresh = this.#timers.after(RATE_CACHE_TTL_MS, () => void this.#load());
  }

  #publish(s: RatesSnapshot): void {
    this.#snapshot = s;
    for (const fn of this.#listeners) fn();
  }
}

/**
 * `amount` of `currency` in `unit` at the snapshot's rates: exact for 0 and for the unit itself,
 * NaN while the rate is unknown (shown as "—", never as a wrong zero).
 */
export function valueIn(s: RatesSnapshot, currency: string, amount: number, unit: string): number {
  if (amount === 0) return 0;
  if (currency === unit) return amount;
  const rate = s.unit === unit ? s.rates.get(currency) : undefined;
  return rate === undefined ? Number.NaN : amount * rate;
}
