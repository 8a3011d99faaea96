/**
 * The liquidations widget's model, framework-free: the live `liq:global` rows and the REST history
 * pages (docs/protocol.md#liquidations, states in docs/product-rules.md#liquidations-history) merged
 * into one newest-first list, published at most once per REFRESH_MS (a `useSyncExternalStore`
 * source), so a burst of liquidations costs one render.
 */
import {
  liquidationCodec,
  parseSymbol,
  type Liquidation,
  type LiquidationsHistoryView,
  type StatusView,
} from "../../../../protocol";

/** How often the list re-renders at most. */
export const REFRESH_MS = 1000;

/** How many rows the widget keeps (live and history together). */
export const ROWS_KEPT = 1000;

export interface LiquidationsSnapshot {
  /** Newest first; one row per position and phase. */
  readonly rows: readonly Liquidation[];
  readonly history: LiquidationsHistoryView;
  /** False once an older page brought nothing new: the history's start is reached. */
  readonly more: boolean;
}

const NOT_ASKED: LiquidationsHistoryView = { status: "NOT_ASKED", error: null, range: null, rows: [] };

/** `tBTCUSD` → `BTC/USD`; the symbol itself when it is no trading pair. */
export function pairOf(symbol: string): string {
  const info = parseSymbol(symbol);
  return info && info.kind === "trading" ? `${info.base}/${info.quote}` : symbol;
}

const keyOf = (l: Liquidation): string => `${l.posId}|${l.isMatch ? 1 : 0}`;

export class LiquidationsStore {
  readonly #rows = new Map<string, Liquidation>();
  #history: LiquidationsHistoryView = NOT_ASKED;
  #more = true;
  /** How many rows were held when an older page was asked for; null when none is pending. */
  #heldAtAsk: number | null = null;
  #snapshot: LiquidationsSnapshot = { rows: [], history: NOT_ASKED, more: true };
  #dirty = false;
  readonly #listeners = new Set<() => void>();

  /** Takes the live channel's view: every row it holds (the worker keeps those a throttle skipped). */
  observeLive(view: Pick<StatusView, "liquidations">): void {
    for (const raw of view.liquidations ?? []) this.#add(raw);
  }

  /**
   * Takes a history page's view. An older page that ends READY having added no row means nothing
   * older is left (the worker's history is shared, so a view may carry rows loaded before).
   */
  observeHistory(view: LiquidationsHistoryView): void {
    for (const raw of view.rows) this.#add(raw);
    if (view.status === "READY" || view.status === "ERROR") {
      if (view.status === "READY" && this.#heldAtAsk !== null && this.#rows.size === this.#heldAtAsk)
        this.#more = false;
      this.#heldAtAsk = null;
    }
    this.#history = view;
    this.#dirty = true;
    // A state change (loading, failed) shows at once: the user just asked for it.
    this.tick();
  }

  /** Starts asking for an older page: its `end`, the oldest time held (0 for the first page: now). */
  askOlder(): number {
    this.#heldAtAsk = this.#rows.size;
    return this.#history.range?.start ?? 0;
  }

  #add(raw: unknown): void {
    const d = liquidationCodec.decode(raw);
    if (!d.ok) return;
    const key = keyOf(d.value);
    if (this.#rows.has(key)) return;
    this.#rows.set(key, d.value);
    this.#dirty = true;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): LiquidationsSnapshot => this.#snapshot;

  /** Publishes what changed since the last tick (the owner's timer calls it every REFRESH_MS). */
  tick(): void {
    if (!this.#dirty) return;
    this.#dirty = false;
    const rows = [...this.#rows.values()].sort((a, b) => b.mts - a.mts || b.posId - a.posId);
    if (rows.length > ROWS_KEPT) {
      // The oldest go: the history can bring them back.
      for (const l of rows.slice(ROWS_KEPT)) this.#rows.delete(keyOf(l));
      rows.length = ROWS_KEPT;
    }
    this.#snapshot = { rows, history: this.#history, more: this.#more };
    for (const l of this.#listeners) l();
  }
}
