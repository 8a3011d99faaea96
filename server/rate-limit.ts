/**
 * Per-IP, per-endpoint-group request limits in fixed one-minute windows (docs/protocol.md#rest-errors-and-rate-limits:
 * the real API allows 10–90 requests a minute per endpoint and answers 429 beyond). Memory is bounded: old
 * windows are dropped as the clock moves on.
 */
export type LimitGroup = "public" | "auth" | "login";

export const DEFAULT_LIMITS: Readonly<Record<LimitGroup, number>> = { public: 90, auth: 90, login: 10 };

export class RateLimiter {
  readonly #counts = new Map<string, number>();
  #window = -1;

  constructor(
    readonly limits: Readonly<Record<LimitGroup, number>>,
    readonly now: () => number,
    readonly windowMs = 60_000,
  ) {}

  /** Counts a request; false when the caller is over its limit for this window. */
  allow(ip: string, group: LimitGroup): boolean {
    const w = Math.floor(this.now() / this.windowMs);
    if (w !== this.#window) {
      this.#window = w;
      this.#counts.clear();
    }
    const key = `${ip}|${group}`;
    const n = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, n);
    return n <= this.limits[group];
  }

  /** Whole seconds until the current window ends and a refused caller may try again (at least 1). */
  retryAfterS(): number {
    const end = (Math.floor(this.now() / this.windowMs) + 1) * this.windowMs;
    return Math.max(1, Math.ceil((end - this.now()) / 1000));
  }
}
