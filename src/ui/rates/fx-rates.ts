/**
 * Currency conversion rates from the exchange (`calc/fx`, `calc/fx/batch`), with the product's
 * rules (docs/product-rules.md#conversion-rates):
 *
 * - a rate is kept 60 s (`RATE_CACHE_TTL_MS`) and asked again only after that;
 * - a batch asks only for the pairs not cached, and pairs wanted at the same moment (in one
 *   microtask) go out as one batch — never one call per row;
 * - when the exchange cannot convert a pair directly and neither side is USD, the rate is derived
 *   through USD (A→USD ÷ B→USD); the request of a currency's USD rate is reused for 30 s
 *   (`USD_RATE_REUSE_MS`), in flight or answered, so ten pairs bridging through EUR ask once;
 * - a failure is logged: a single conversion gives 0, a bulk one what is cached.
 *
 * Rates change only at this pace, so this is not per-tick work and stays on the main thread (the
 * worker is for market data). Framework-free: the transport and the clock are injected, so it is
 * tested in Node with a fake clock (`fx-rates.test.ts`).
 */
import {
  decodeFxBatch,
  decodeFxRate,
  encodeFxBatchRequest,
  encodeFxRequest,
  RATE_CACHE_TTL_MS,
  USD_RATE_REUSE_MS,
  type FxPair,
} from "../../protocol";

/** POSTs a public call; resolves with the reply, rejects when the exchange cannot be reached. */
export type FxPost = (path: string, body: unknown) => Promise<{ readonly status: number; readonly body: unknown }>;

export interface FxRatesEnv {
  readonly post: FxPost;
  readonly now: () => number;
  /** Where failures are told (the app's logger). */
  readonly log: { readonly warn: (message: string, detail?: unknown) => void };
}

const USD = "USD";
/** The key of a pair in `rates()`'s answer. */
export const rateKey = (from: string, to: string): string => `${from}>${to}`;
const key = rateKey;

interface Cached {
  readonly rate: number;
  readonly at: number;
}

interface UsdRequest {
  readonly at: number;
  readonly rate: Promise<number | null>;
}

export class FxRates {
  readonly #env: FxRatesEnv;
  readonly #cache = new Map<string, Cached>();
  readonly #usd = new Map<string, UsdRequest>();
  /** Pairs asked in this microtask, sent together as one batch. */
  #queued: { pairs: Map<string, FxPair>; done: Promise<Map<string, number | null>> } | null = null;

  constructor(env: FxRatesEnv) {
    this.#env = env;
  }

  /** The cached rate of one unit of `from` in `to` while it is fresh (1 for a currency in itself). */
  cached(from: string, to: string): number | undefined {
    if (from === to) return 1;
    const c = this.#cache.get(key(from, to));
    return c !== undefined && this.#env.now() - c.at < RATE_CACHE_TTL_MS ? c.rate : undefined;
  }

  /** One rate (`calc/fx`): cached, asked, or bridged through USD; 0 when none can be had. */
  async rate(from: string, to: string): Promise<number> {
    const { log } = this.#env;
    const hit = this.cached(from, to);
    if (hit !== undefined) return hit;
    let direct: number | null = null;
    try {
      const reply = await this.#env.post("/v2/calc/fx", encodeFxRequest({ from, to }));
      direct = reply.status === 200 ? decodeFxRate(reply.body) : null;
    } catch (err) {
      log.warn(`calc/fx ${from}→${to} failed`, err);
    }
    const rate = direct ?? (await this.#bridge(from, to));
    if (rate === null) {
      log.warn(`no rate for ${from}→${to}`);
      return 0;
    }
    this.#store(from, to, rate);
    return rate;
  }

  /**
   * Many rates (`calc/fx/batch`): the cached ones as they are, the rest asked in one batch shared
   * with every other call of the same microtask, a pair the exchange cannot convert bridged through
   * USD. A pair without a rate is left out of the answer (its value is unknown, not zero).
   */
  async rates(pairs: readonly FxPair[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const missing: FxPair[] = [];
    for (const p of pairs) {
      const hit = this.cached(p.from, p.to);
      if (hit !== undefined) out.set(key(p.from, p.to), hit);
      else missing.push(p);
    }
    if (missing.length === 0) return out;
    const answered = await this.#batch(missing);
    await Promise.all(
      missing.map(async (p) => {
        const k = key(p.from, p.to);
        const rate = answered.get(k) ?? (await this.#bridge(p.from, p.to));
        if (rate === null) return;
        this.#store(p.from, p.to, rate);
        out.set(k, rate);
      }),
    );
    // What was cached when the call started still counts if asking failed.
    for (const p of missing) {
      const k = key(p.from, p.to);
      if (!out.has(k)) {
        const stale = this.#cache.get(k);
        if (stale) out.set(k, stale.rate);
      }
    }
    return out;
  }

  #store(from: string, to: string, rate: number): void {
    const at = this.#env.now();
    this.#cache.set(key(from, to), { rate, at });
    this.#cache.set(key(to, from), { rate: 1 / rate, at });
  }

  /** Joins this microtask's batch (starting it if none is open); resolves with the batch's answers. */
  #batch(pairs: readonly FxPair[]): Promise<Map<string, number | null>> {
    if (this.#queued === null) {
      const queued: { pairs: Map<string, FxPair>; done: Promise<Map<string, number | null>> } = {
        pairs: new Map(),
        done: Promise.resolve().then(() => {
          this.#queued = null;
          return this.#send([...queued.pairs.values()]);
        }),
      };
      this.#queued = queued;
    }
    for (const p of pairs) this.#queued.pairs.set(key(p.from, p.to), p);
    return this.#queued.done;
  }

  async #send(pairs: readonly FxPair[]): Promise<Map<string, number | null>> {
    const { log } = this.#env;
    const out = new Map<string, number | null>();
    if (pairs.length === 0) return out;
    try {
      const reply = await this.#env.post("/v2/calc/fx/batch", encodeFxBatchRequest(pairs));
      const rates = reply.status === 200 ? decodeFxBatch(reply.body, pairs.length) : null;
      if (rates === null) log.warn(`calc/fx/batch answered ${reply.status}`);
      pairs.forEach((p, i) => out.set(key(p.from, p.to), rates?.[i] ?? null));
    } catch (err) {
      log.warn("calc/fx/batch failed", err);
    }
    return out;
  }

  /** `from`→`to` through USD, when neither is USD; null when a leg has no rate. */
  async #bridge(from: string, to: string): Promise<number | null> {
    if (from === USD || to === USD) return null;
    const [a, b] = await Promise.all([this.#usdRate(from), this.#usdRate(to)]);
    return a !== null && b !== null && b > 0 ? a / b : null;
  }

  /** `ccy`→USD, its request reused for USD_RATE_REUSE_MS (in flight or answered). */
  #usdRate(ccy: string): Promise<number | null> {
    const hit = this.cached(ccy, USD);
    if (hit !== undefined) return Promise.resolve(hit);
    const now = this.#env.now();
    const asked = this.#usd.get(ccy);
    if (asked !== undefined && now - asked.at < USD_RATE_REUSE_MS) return asked.rate;
    const rate = this.#batch([{ from: ccy, to: USD }]).then((answers) => {
      const r = answers.get(key(ccy, USD)) ?? null;
      if (r !== null) this.#store(ccy, USD, r);
      return r;
    });
    this.#usd.set(ccy, { at: now, rate });
    return rate;
  }
}
