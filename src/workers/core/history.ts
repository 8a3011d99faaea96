/**
 * Liquidations history (docs/product-rules.md#liquidations-history): NOT_ASKED → LOADING → READY |
 * ERROR, with the error text kept and the available time range widened as pages arrive. Fetch is
 * injected (the worker's, or a fake in tests); REST rows arrive wrapped in an extra array
 * (docs/protocol.md#liquidations).
 */
import { liquidationCodec, type HistoryStatus, type LiquidationsHistoryView } from "../../protocol";

export type JsonFetch = (url: string) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

export class LiquidationsHistory {
  status: HistoryStatus = "NOT_ASKED";
  error: string | null = null;
  range: { start: number; end: number } | null = null;
  rows: unknown[] = [];
  readonly #fetch: JsonFetch;
  readonly #base: string;
  readonly #seen = new Set<number>();
  /** Each kept row's time, for the newest-first order. */
  readonly #mts = new Map<unknown, number>();

  constructor(restBase: string, fetch: JsonFetch) {
    this.#base = restBase;
    this.#fetch = fetch;
  }

  view(): LiquidationsHistoryView {
    return { status: this.status, error: this.error, range: this.range, rows: this.rows };
  }

  /** Loads one page ending at `end` (0: now). Never throws; failures set ERROR with the reason. */
  async load(end: number, limit = 100): Promise<LiquidationsHistoryView> {
    this.status = "LOADING";
    this.error = null;
    const query = new URLSearchParams({ limit: String(limit), sort: "-1" });
    if (end > 0) query.set("end", String(end));
    try {
      const res = await this.#fetch(`${this.#base}/v2/liquidations/hist?${query.toString()}`);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = await res.json();
      if (!Array.isArray(body)) throw new Error("unexpected response");
      for (const wrapped of body) {
        const row: unknown = Array.isArray(wrapped) && Array.isArray(wrapped[0]) ? (wrapped[0] as unknown) : wrapped;
        const d = liquidationCodec.decode(row);
        if (!d.ok || this.#seen.has(d.value.posId)) continue;
        const { posId, mts } = d.value;
        this.#seen.add(posId);
        this.#mts.set(row, mts);
        this.rows.push(row);
        this.range = this.range
          ? { start: Math.min(this.range.start, mts), end: Math.max(this.range.end, mts) }
          : { start: mts, end: mts };
      }
      this.rows.sort((a, b) => (this.#mts.get(b) ?? 0) - (this.#mts.get(a) ?? 0));
      this.status = "READY";
    } catch (err) {
      this.status = "ERROR";
      this.error = err instanceof Error ? err.message : String(err);
    }
    return this.view();
  }
}
