/**
 * The conversion rules of fx-rates.ts and valuation.ts with a fake clock and a scripted exchange:
 * the 60 s cache, batches only for what is not cached (and one batch per moment, not one call per
 * pair), the USD bridge when a direct rate fails, the 30 s reuse of a currency's USD rate request,
 * and what a failure gives (single: 0; bulk: what is cached).
 */
import { describe, expect, it } from "vitest";
import { decodeFxBatchRequest, decodeFxQuery, RATE_CACHE_TTL_MS, USD_RATE_REUSE_MS } from "../../protocol";
import { FxRates, rateKey } from "./fx-rates";
import { RatesBook } from "./valuation";

interface Call {
  readonly path: string;
  readonly pairs: string[];
}

/** An exchange that knows `known` (and their inverses) and nothing else; `down` makes every call fail. */
function scripted(known: Record<string, number>) {
  const state = { now: 1_000_000, down: false, calls: [] as Call[], warnings: 0 };
  const lookup = (a: string, b: string): number | null => {
    if (a === b) return 1;
    const d = known[`${a}>${b}`];
    if (d !== undefined) return d;
    const i = known[`${b}>${a}`];
    return i !== undefined ? 1 / i : null;
  };
  const fx = new FxRates({
    now: () => state.now,
    log: { warn: () => void state.warnings++ },
    post: async (path, body) => {
      await Promise.resolve();
      if (state.down) throw new Error("unreachable");
      if (path === "/v2/calc/fx") {
        const q = decodeFxQuery(body);
        state.calls.push({ path, pairs: q ? [`${q.ccy1}>${q.ccy2}`] : [] });
        const r = q ? lookup(q.ccy1, q.ccy2) : null;
        return r === null ? { status: 400, body: ["error", 10020, "ccy: invalid"] } : { status: 200, body: [r] };
      }
      const qs = decodeFxBatchRequest(body) ?? [];
      state.calls.push({ path, pairs: qs.map((q) => (q ? `${q.ccy1}>${q.ccy2}` : "?")) });
      return { status: 200, body: { data: qs.map((q) => (q ? lookup(q.ccy1, q.ccy2) : null)) } };
    },
  });
  return { fx, state };
}

const KNOWN = { "BTC>USD": 80_000, "EUR>USD": 1.1, "JPY>USD": 0.0065, "BTC>EUR": 72_000 };

describe("FxRates", () => {
  it("asks once per batch for what is not cached, and again only after 60 s", async () => {
    const { fx, state } = scripted(KNOWN);
    const first = await fx.rates([
      { from: "BTC", to: "USD" },
      { from: "EUR", to: "USD" },
    ]);
    expect(first.get(rateKey("BTC", "USD"))).toBe(80_000);
    expect(state.calls).toEqual([{ path: "/v2/calc/fx/batch", pairs: ["BTC>USD", "EUR>USD"] }]);
    // A second screen asking for an overlapping set: only the new pair goes out.
    await fx.rates([
      { from: "EUR", to: "USD" },
      { from: "JPY", to: "USD" },
    ]);
    expect(state.calls[1]).toEqual({ path: "/v2/calc/fx/batch", pairs: ["JPY>USD"] });
    // The inverse of a cached rate is cached too.
    expect(fx.cached("USD", "EUR")).toBeCloseTo(1 / 1.1, 12);
    state.now += RATE_CACHE_TTL_MS - 1;
    await fx.rates([{ from: "BTC", to: "USD" }]);
    expect(state.calls).toHaveLength(2);
    state.now += 1;
    expect(fx.cached("BTC", "USD")).toBeUndefined();
    await fx.rates([{ from: "BTC", to: "USD" }]);
    expect(state.calls).toHaveLength(3);
  });

  it("sends the pairs wanted in the same moment as one batch, not one call each", async () => {
    const { fx, state } = scripted(KNOWN);
    await Promise.all([
      fx.rates([{ from: "BTC", to: "USD" }]),
      fx.rates([{ from: "EUR", to: "USD" }]),
      fx.rates([{ from: "JPY", to: "USD" }]),
    ]);
    expect(state.calls).toEqual([{ path: "/v2/calc/fx/batch", pairs: ["BTC>USD", "EUR>USD", "JPY>USD"] }]);
  });

  it("bridges a pair the exchange cannot convert through USD, reusing each USD rate request for 30 s", async () => {
    const { fx, state } = scripted(KNOWN);
    const rates = await fx.rates([
      { from: "JPY", to: "EUR" },
      { from: "JPY", to: "BTC" },
    ]);
    expect(rates.get(rateKey("JPY", "EUR"))).toBeCloseTo(0.0065 / 1.1, 12);
    expect(rates.get(rateKey("JPY", "BTC"))).toBeCloseTo(0.0065 / 80_000, 15);
    // The direct batch, then one batch of the USD legs: JPY asked once for both bridges.
    expect(state.calls).toHaveLength(2);
    expect(state.calls[1]?.pairs.sort()).toEqual(["BTC>USD", "EUR>USD", "JPY>USD"]);
    // A single conversion bridges the same way.
    const single = scripted(KNOWN);
    expect(await single.fx.rate("JPY", "EUR")).toBeCloseTo(0.0065 / 1.1, 12);
    expect(single.state.calls.map((c) => c.path)).toEqual(["/v2/calc/fx", "/v2/calc/fx/batch"]);
  });

  it("reuses a USD rate request within 30 s even when the rates cache has none, and asks again after", async () => {
    // JPY→USD unknown: the USD request answers null, and is not repeated for 30 s.
    const { fx, state } = scripted({ "EUR>USD": 1.1 });
    expect((await fx.rates([{ from: "JPY", to: "EUR" }])).size).toBe(0);
    const asked = state.calls.length;
    state.now += RATE_CACHE_TTL_MS; // past nothing cached: the direct pair is asked again…
    state.now -= RATE_CACHE_TTL_MS - (USD_RATE_REUSE_MS - 1); // …but within 30 s of the USD request
    await fx.rates([{ from: "JPY", to: "EUR" }]);
    const usdAsks = state.calls.slice(asked).filter((c) => c.pairs.includes("JPY>USD"));
    expect(usdAsks).toHaveLength(0);
    state.now += 1;
    await fx.rates([{ from: "JPY", to: "EUR" }]);
    expect(state.calls.slice(asked).filter((c) => c.pairs.includes("JPY>USD"))).toHaveLength(1);
  });

  it("never bridges when one side is USD, and gives 0 for a single conversion that fails", async () => {
    const { fx, state } = scripted(KNOWN);
    expect(await fx.rate("NOPE", "USD")).toBe(0);
    expect(state.calls).toEqual([{ path: "/v2/calc/fx", pairs: ["NOPE>USD"] }]);
    expect(state.warnings).toBeGreaterThan(0);
    state.down = true;
    expect(await fx.rate("BTC", "EUR")).toBe(0);
  });

  it("answers a failed bulk call with what is cached, even when it is stale", async () => {
    const { fx, state } = scripted(KNOWN);
    await fx.rates([{ from: "BTC", to: "USD" }]);
    state.now += RATE_CACHE_TTL_MS * 3;
    state.down = true;
    const got = await fx.rates([
      { from: "BTC", to: "USD" },
      { from: "EUR", to: "USD" },
    ]);
    expect([...got]).toEqual([[rateKey("BTC", "USD"), 80_000]]);
  });
});

describe("RatesBook", () => {
  /** A fake clock that runs the callbacks due when advanced. */
  function fakeTimers(state: { now: number }) {
    const due: { at: number; fn: () => void }[] = [];
    return {
      timers: {
        now: () => state.now,
        after: (ms: number, fn: () => void) => {
          const t = { at: state.now + ms, fn };
          due.push(t);
          return () => void due.splice(due.indexOf(t), 1);
        },
        every: () => () => undefined,
        frame: () => () => undefined,
      },
      advance(ms: number): void {
        state.now += ms;
        for (const t of due.filter((x) => x.at <= state.now)) {
          due.splice(due.indexOf(t), 1);
          t.fn();
        }
      },
      pending: () => due.length,
    };
  }
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it("publishes every wanted currency in the unit, refreshes after 60 s, and stops when asked", async () => {
    const { fx, state } = scripted(KNOWN);
    const clock = fakeTimers(state);
    const book = new RatesBook(fx, clock.timers);
    let renders = 0;
    book.subscribe(() => renders++);
    book.want(["BTC", "EUR", "USD", "EUR"], "USD");
    expect(book.snapshot().loading).toBe(true);
    await settle();
    const snap = book.snapshot();
    expect(snap.loading).toBe(false);
    expect(Object.fromEntries(snap.rates)).toEqual({ USD: 1, BTC: 80_000, EUR: 1.1 });
    expect(state.calls).toHaveLength(1);
    // The same wants again change nothing.
    book.want(["USD", "EUR", "BTC"], "USD");
    expect(state.calls).toHaveLength(1);
    clock.advance(RATE_CACHE_TTL_MS);
    await settle();
    expect(state.calls).toHaveLength(2);
    const before = renders;
    book.want(["BTC", "EUR"], "EUR");
    await settle();
    expect(book.snapshot().unit).toBe("EUR");
    expect(book.snapshot().rates.get("BTC")).toBe(72_000);
    expect(renders).toBeGreaterThan(before);
    book.stop();
    expect(clock.pending()).toBe(0);
  });
});
