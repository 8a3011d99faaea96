/**
 * Whether a wallet's ledger proves its balance (docs/product-rules.md#reports, "Reconciliation"):
 * its rows walked in the order they were written (id ascending — each row's balance was computed
 * from the one before, whatever the clock said) must chain from zero, each balance the one before
 * plus its amount, and end on the wallet's balance. One rule for the exchange (which answers
 * `r/ledgers/reconcile` from its own tables) and the web app's worker (which checks the rows it
 * reads through `r/ledgers/hist` against the wallets of the account socket), in integer units of
 * 1e-8 so the comparison is exact.
 */
import type { LedgerReconciliation } from "./ledgers";

/** One ledger row in integer units of 1e-8. */
export interface LedgerStep {
  readonly id: number;
  readonly mts: number;
  readonly amount: number;
  readonly balance: number;
}

/** The walk of one wallet's rows: how many, and the first row whose balance does not follow. */
export interface ChainCheck {
  readonly rows: number;
  /** The balance the last row left (0 with no rows). */
  readonly last: number;
  readonly broken: {
    readonly id: number;
    readonly mts: number;
    readonly expected: number;
    readonly found: number;
  } | null;
}

/** Walks `steps` (id ascending) from a balance of zero. */
export function walkChain(steps: Iterable<LedgerStep>): ChainCheck {
  let last = 0;
  let rows = 0;
  let broken: ChainCheck["broken"] = null;
  for (const s of steps) {
    rows++;
    if (broken === null && s.balance !== last + s.amount)
      broken = { id: s.id, mts: s.mts, expected: last + s.amount, found: s.balance };
    last = s.balance;
  }
  return { rows, last, broken };
}

/** Decimal amounts (as the wire carries them) to integer units of 1e-8, the exchange's precision. */
export function toLedgerUnits(x: number): number {
  return Math.round(x * 1e8);
}

function fromLedgerUnits(units: number): number {
  return units / 1e8;
}

/** A wallet's reconciliation record from its walk and its balance in units. */
export function reconciliationOf(
  currency: string,
  wallet: string,
  balance: number,
  check: ChainCheck,
): LedgerReconciliation {
  const { broken } = check;
  return {
    currency,
    wallet,
    balance: fromLedgerUnits(balance),
    rows: check.rows,
    chained: broken === null && check.last === balance,
    breakId: broken?.id ?? null,
    breakTime: broken?.mts ?? null,
    expected: broken ? fromLedgerUnits(broken.expected) : null,
    found: broken ? fromLedgerUnits(broken.found) : null,
  };
}

/**
 * Why the worker's ledger check could not be made: no credentials; the account socket's wallets
 * not there yet (just signed in, or reconnecting); the exchange unreachable, refusing, or
 * answering rows that do not decode.
 */
export type LedgerCheckError = "signed-out" | "no-wallets" | "unreachable" | "refused" | "malformed";

/** The worker's ledger check (MarketWorkerApi.checkLedgers): each wallet reconciled, or why not. */
export type LedgerCheckResult =
  | { readonly ok: true; readonly wallets: readonly LedgerReconciliation[] }
  | { readonly ok: false; readonly error: LedgerCheckError };
