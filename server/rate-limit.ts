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

/**
 * Development only (`POST /dev/rate-limit`, guarded like every dev endpoint): 429s on demand for
 * the requests whose `User-Agent` carries a mark, so the app's rate-limit handling can be tried in
 * one test's browser without spending a minute's allowance of the whole address (which every other
 * test shares). Each rule answers its next `count` requests under `path` exactly as the limiter
 * does — 429, `Retry-After` in seconds, `{error: "ERR_RATE_LIMIT"}` — and is then used up.
 */
export interface ForcedLimit {
  readonly agent: string;
  readonly path: string;
  left: number;
  readonly retryAfterS: number;
}

export class ForcedLimits {
  readonly #rules: ForcedLimit[] = [];

  /** Reads `{agent, path, count, retryAfter}`; null when a field is missing or out of bounds. */
  add(body: Record<string, unknown>): ForcedLimit | null {
    const { agent, path, count, retryAfter } = body;
    if (typeof agent !== "string" || agent.length < 8 || agent.length > 200) return null;
    if (typeof path !== "string" || !path.startsWith("/") || path.length > 500) return null;
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > 100) return null;
    if (typeof retryAfter !== "number" || !Number.isInteger(retryAfter) || retryAfter < 1 || retryAfter > 120)
      return null;
    const rule: ForcedLimit = { agent, path, left: count, retryAfterS: retryAfter };
    // Bounded: a rule is dropped once used up, and the oldest beyond 100 goes first.
    this.#rules.push(rule);
    if (this.#rules.length > 100) this.#rules.shift();
    return rule;
  }

  /** Spends one refusal of the first rule matching the request; its Retry-After, or null. */
  take(agent: string, pathname: string, client: string | null): number | null {
    // Only for browsers on this machine, which is where tests run: a rule (set from loopback) must
    // not turn away anyone else who reaches a host listening on every interface.
    if (!isLoopback(client)) return null;
    const i = this.#rules.findIndex((r) => agent.includes(r.agent) && pathname.startsWith(r.path));
    const rule = this.#rules[i];
    if (rule === undefined) return null;
    rule.left--;
    if (rule.left <= 0) this.#rules.splice(i, 1);
    return rule.retryAfterS;
  }
}

function isLoopback(address: string | null): boolean {
  return address !== null && (address === "::1" || /^(::ffff:)?127\./.test(address));
}
