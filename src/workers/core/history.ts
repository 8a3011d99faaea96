/**
 * Liquidations history (SPEC section 4): NOT_ASKED → LOADING → READY | ERROR, with the error text
 * kept and the available time range widened as pages arrive. Fetch is injected (the worker's, or a
 * fake in tests); REST rows arrive wrapped in an extra array (PROTOCOL.md 5).
 */
import type { HistoryStatus, LiquidationsHistoryView } from "../../protocol";

export type JsonFetch = (url: string) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

export class LiquidationsHistory {
  status: HistoryStatus = "NOT_ASKED";
  error: string | null = null;
  range: { start: number; end: number } | null = null;
  rows: unknown[] = [];
  readonly #fetch: JsonFetch;
  readonly #base: string;
  readonly #seen = new Set<number>();

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
        const row: unknown = Array.isArray(wrapped) && Array.isArray(wrapped[0]) ? wrapped[0] : wrapped;
        if (!Array.isArray(row) || typeof row[1] !== "number" || typeof row[2] !== "number") continue;
        if (this.#seen.has(row[1])) continue;
        this.#seen.add(row[1]);
        this.rows.push(row);
        const mts = row[2];
        this.range = this.range
          ? { start: Math.min(this.range.start, mts), end: Math.max(this.range.end, mts) }
          : { start: mts, end: mts };
      }
      this.rows.sort((a, b) => ((b as number[])[2] as number) - ((a as number[])[2] as number));
      this.status = "READY";
    } catch (err) {
      this.status = "ERROR";
      this.error = err instanceof Error ? err.message : String(err);
    }
    return this.view();
  }
}
