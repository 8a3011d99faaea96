/**
 * The ledger check of the reports page (docs/product-rules.md#reports, "Reconciliation"), made in
 * the worker from what the account really shows: every ledger row, read through
 * `r/ledgers/hist` page by page with the `(end, end_id)` cursor, walked per wallet from zero
 * (`walkChain`, the exchange's own rule), against each wallet's balance as the account socket
 * reports it. The exchange's `r/ledgers/reconcile` answers the same question from its own tables;
 * this one trusts neither side's arithmetic, only the rows and the socket's wallets.
 *
 * The rows and the wallets are read at different moments: a trade or transfer landing in between
 * leaves a wallet one row ahead of the pages read. So when a wallet does not reconcile and the
 * account changed while the pages were read, the check reads again (a few times at most).
 */
import {
  ledgerCodec,
  reconciliationOf,
  toLedgerUnits,
  walkChain,
  type LedgerCheckError,
  type LedgerCheckResult,
  type LedgerEntry,
  type LedgerReconciliation,
  type LedgerStep,
  type Wallet,
} from "../../protocol";
import { signedPost, type RestReply, type RestSigner, type WorkerRest } from "./rest";

const PATH = "/v2/auth/r/ledgers/hist";
/** Bitfinex's largest page: few round trips for a long ledger. */
const PAGE = 2500;
/** Reads of the whole ledger before the check reports what it found. */
const ATTEMPTS = 3;

export interface LedgerCheckDeps {
  /** The authenticated REST origin. */
  readonly base: string;
  readonly fetch: WorkerRest["fetch"];
  /** The waits after a 429 (src/workers/core/rest.ts). */
  readonly timers: WorkerRest["timers"];
  /** The signed headers for a call (AccountAuth.restHeaders); null when signed out. */
  readonly headers: RestSigner["headers"];
  /** A fresh nonce after a 10114 (AccountAuth.resetNonce). */
  readonly resetNonce?: () => void;
  /** Every 429: the main thread's notice. */
  readonly onRateLimited?: WorkerRest["onRateLimited"];
  /**
   * The account socket's wallets now (null until its snapshot arrived), and the account view's
   * version (it rises on every change).
   */
  readonly account: () => { readonly version: number; readonly wallets: readonly Wallet[] | null };
  /** Rows a page asks for (tests use small pages to cross page boundaries). */
  readonly pageSize?: number;
}

type Rows =
  { readonly ok: true; readonly rows: LedgerEntry[] } | { readonly ok: false; readonly error: LedgerCheckError };

async function readAll(d: LedgerCheckDeps): Promise<Rows> {
  const limit = d.pageSize ?? PAGE;
  const rows: LedgerEntry[] = [];
  const rest: WorkerRest = {
    fetch: d.fetch,
    timers: d.timers,
    ...(d.onRateLimited ? { onRateLimited: d.onRateLimited } : {}),
  };
  const signer: RestSigner = { headers: d.headers, ...(d.resetNonce ? { resetNonce: d.resetNonce } : {}) };
  let cursor: { end: number; end_id: number } | null = null;
  for (;;) {
    const body = JSON.stringify({ limit, ...cursor });
    let reply: RestReply | null;
    try {
      // A 429 waits and reads again, a 10114 signs again (rest.ts): a page is a read.
      reply = await signedPost(rest, signer, d.base, PATH, body);
    } catch {
      return { ok: false, error: "unreachable" };
    }
    if (reply === null) return { ok: false, error: "signed-out" };
    if (!reply.ok) return { ok: false, error: "refused" };
    const page = ledgerCodec.decodeList(reply.body);
    if (!page.ok) return { ok: false, error: "malformed" };
    rows.push(...page.value);
    const oldest = page.value.at(-1);
    if (page.value.length < limit || oldest === undefined) return { ok: true, rows };
    cursor = { end: oldest.time, end_id: oldest.id };
  }
}

/** Each wallet the socket or the ledger knows, currency then wallet, reconciled. */
export function reconcile(rows: readonly LedgerEntry[], wallets: readonly Wallet[]): LedgerReconciliation[] {
  const steps = new Map<string, LedgerStep[]>();
  const key = (currency: string, wallet: string): string => `${currency}\u0000${wallet}`;
  for (const r of rows) {
    // A row without its wallet cannot be placed in a chain; the exchange always names it.
    if (r.wallet === null || r.balance === null) continue;
    const k = key(r.currency, r.wallet);
    let list = steps.get(k);
    if (!list) steps.set(k, (list = []));
    list.push({ id: r.id, mts: r.time, amount: toLedgerUnits(r.amount), balance: toLedgerUnits(r.balance) });
  }
  const balances = new Map<string, number>();
  for (const w of wallets) balances.set(key(w.currency, w.type), toLedgerUnits(w.balance));
  const keys = [...new Set([...steps.keys(), ...balances.keys()])].sort();
  return keys.map((k) => {
    const [currency = "", wallet = ""] = k.split("\u0000");
    const chain = (steps.get(k) ?? []).sort((a, b) => a.id - b.id);
    return reconciliationOf(currency, wallet, balances.get(k) ?? 0, walkChain(chain));
  });
}

export async function checkLedgers(d: LedgerCheckDeps): Promise<LedgerCheckResult> {
  let result: LedgerReconciliation[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = d.account().version;
    const read = await readAll(d);
    if (!read.ok) return read;
    const now = d.account();
    if (now.wallets === null) return { ok: false, error: "no-wallets" };
    result = reconcile(read.rows, now.wallets);
    if (now.version === before || result.every((w) => w.chained)) break;
  }
  return { ok: true, wallets: result };
}
