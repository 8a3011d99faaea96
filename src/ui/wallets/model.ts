/**
 * The wallets page's rules, framework-free (docs/product-rules.md#wallets-and-ledgers):
 *
 * - `walletRows`: every wallet of the account — exchange, margin, funding, and creditline or
 *   contribution when the exchange sends them — grouped by currency, wallet types in a fixed order;
 *   with "hide small balances" on, a wallet whose balance is below the threshold (in its own
 *   currency) is left out.
 * - `TransferModel`: the transfer dialog's — between the account's own wallets, or to its master or
 *   one of its sub-accounts (docs/product-rules.md#sub-accounts) — through the states
 *   idle → converting → succeeded | failed (a failure keeps its error until cleared). The amount is
 *   checked by the rules the exchange applies (src/protocol transfers.ts) before anything is sent;
 *   each transfer carries a request id, kept while the same transfer is retried, so a retry after a
 *   lost answer never moves the money twice.
 */
import {
  checkTransferAmount,
  encodeTransferRequest,
  currencyDecimals,
  parseApiError,
  READ_ONLY_CONTEXT_MESSAGE,
  subaccountRefusalOf,
  transferRefusalOf,
  splitPair,
  WALLET_TYPES,
  type AccountView,
  type TransferRefusal,
  type TransferWallet,
  type Wallet,
} from "../../protocol";

/**
 * The currencies the totals can be shown in (the total-equivalent currency setting): the fiat
 * currencies and the cryptocurrencies the exchange converts to.
 */
export const EQUIVALENT_CURRENCIES = ["USD", "EUR", "JPY", "TRY", "BRL", "BTC", "ETH"] as const;

export function walletRows(wallets: readonly Wallet[], hideSmall: boolean, threshold: number): Wallet[] {
  const order = (t: string): number => {
    const i = (WALLET_TYPES as readonly string[]).indexOf(t);
    return i === -1 ? WALLET_TYPES.length : i;
  };
  return wallets
    .filter((w) => !hideSmall || Math.abs(w.balance) >= threshold)
    .sort((a, b) => a.currency.localeCompare(b.currency) || order(a.type) - order(b.type));
}

/** The account's totals in the unit shown: assets under management, and with open positions' P/L. */
export interface Totals {
  readonly aum: number;
  readonly aumNet: number;
}

/** The quote currency of a position's pair (`tBTCUSD` → `USD`, `tBTCF0:USTF0` → `USTF0`). */
export function positionQuote(pair: string): string | null {
  return splitPair(pair.startsWith("t") ? pair.slice(1) : pair)?.quote ?? null;
}

/**
 * AUM and AUMNet in the unit: the exchange's own figures (`bu`, in USD) when it has sent them; until
 * then — it sends them after a wallet change, not with the first snapshot — the same sums made
 * here: every wallet's balance at the rates, plus the open positions' P/L for AUMNet. `toUnit`
 * gives NaN for a currency without a rate, so an incomplete sum shows as unknown, never too low.
 */
export function accountTotals(
  view: Pick<AccountView, "wallets" | "positions" | "balance">,
  toUnit: (currency: string, amount: number) => number,
): Totals {
  if (view.balance !== null)
    return { aum: toUnit("USD", view.balance.aum), aumNet: toUnit("USD", view.balance.aumNet) };
  let aum = 0;
  for (const w of view.wallets) aum += toUnit(w.currency, w.balance);
  let pl = 0;
  for (const p of view.positions) {
    const quote = positionQuote(p.pair);
    pl += quote === null ? Number.NaN : toUnit(quote, p.pl ?? 0);
  }
  return { aum, aumNet: aum + pl };
}

export type TransferStatus = "idle" | "converting" | "succeeded" | "failed";

/** Why a transfer did not happen, as the dialog tells it. */
export type TransferError =
  | { readonly kind: "refused"; readonly refusal: TransferRefusal }
  /** The account to credit is not one of the group (`invalid`) or not this account's to credit (`not-allowed`). */
  | { readonly kind: "account"; readonly reason: "invalid" | "not-allowed" }
  | { readonly kind: "read-only" }
  | { readonly kind: "unreachable" }
  | { readonly kind: "server" };

export interface TransferForm {
  /** The account credited: absent for the account's own wallets, else its master's or a sub-account's id. */
  readonly toAccount?: number;
  readonly from: TransferWallet;
  readonly to: TransferWallet;
  readonly currency: string;
  /** `USTF0` to credit USDt to the derivatives wallet as collateral; absent otherwise. */
  readonly currencyTo?: string;
  readonly amount: string;
}

export interface TransferState {
  readonly status: TransferStatus;
  readonly error: TransferError | null;
  /** The last transfer that went through (for the success message). */
  readonly done: TransferForm | null;
}

export interface TransferEnv {
  /** POSTs an authenticated call; status 0 when the exchange could not be reached. */
  readonly call: (path: string, body: unknown) => Promise<{ readonly status: number; readonly body: unknown }>;
  /** A fresh request id (random, at least 8 characters of `[A-Za-z0-9_-]`). */
  readonly newId: () => string;
}

/**
 * What is wrong with the form before sending, or null. `available` is the source wallet's
 * available amount of the currency.
 */
export function transferFormProblem(f: TransferForm, available: number): TransferRefusal | null {
  // To another account, the same wallet type on both sides is a real move.
  if (f.from === f.to && f.toAccount === undefined) return "sameWallet";
  if (f.currency === "") return "currency";
  const problem = checkTransferAmount(f.amount, f.currency);
  if (problem === "invalid") return "amount";
  if (problem === "precision") return "precision";
  return Number(f.amount.trim()) > available ? "insufficient" : null;
}

export class TransferModel {
  readonly #env: TransferEnv;
  #state: TransferState = { status: "idle", error: null, done: null };
  readonly #listeners = new Set<() => void>();
  /** The id of the transfer being tried, and what it moves: a retry of the same keeps the id. */
  #pending: { readonly id: string; readonly key: string } | null = null;

  constructor(env: TransferEnv) {
    this.#env = env;
  }

  readonly subscribe = (fn: () => void): (() => void) => {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  };

  readonly state = (): TransferState => this.#state;

  /** Removes a failure (the clear action): back to idle. */
  clear(): void {
    if (this.#state.status === "failed" || this.#state.status === "succeeded")
      this.#set({ status: "idle", error: null, done: this.#state.done });
  }

  /** Checks, then sends; resolves with the state it ends in. A second submit while one runs is ignored. */
  async submit(f: TransferForm, available: number): Promise<TransferState> {
    if (this.#state.status === "converting") return this.#state;
    const problem = transferFormProblem(f, available);
    if (problem !== null) {
      this.#set({ status: "failed", error: { kind: "refused", refusal: problem }, done: null });
      return this.#state;
    }
    const key = JSON.stringify([f.toAccount ?? null, f.from, f.to, f.currency, f.currencyTo ?? null, f.amount.trim()]);
    if (this.#pending?.key !== key) this.#pending = { id: this.#env.newId(), key };
    const requestId = this.#pending.id;
    this.#set({ status: "converting", error: null, done: null });
    const reply = await this.#env.call("/v2/auth/w/transfer", encodeTransferRequest({ ...f, requestId }));
    if (reply.status === 200) {
      // Done: the next transfer, even of the same amount, is a new one.
      this.#pending = null;
      this.#set({ status: "succeeded", error: null, done: f });
      return this.#state;
    }
    this.#set({ status: "failed", error: transferErrorOf(reply.status, reply.body), done: null });
    return this.#state;
  }

  #set(s: TransferState): void {
    this.#state = s;
    for (const fn of this.#listeners) fn();
  }
}

export function transferErrorOf(status: number, body: unknown): TransferError {
  if (status === 0) return { kind: "unreachable" };
  const msg = parseApiError(body)?.message ?? "";
  if (msg === READ_ONLY_CONTEXT_MESSAGE) return { kind: "read-only" };
  const refusal = transferRefusalOf(msg);
  if (refusal !== null) return { kind: "refused", refusal };
  // A transfer to another account is refused on that account alone (server/exchange/funds.ts).
  const other = subaccountRefusalOf(msg);
  if (other?.field === "account")
    return { kind: "account", reason: other.reason === "invalid" ? "invalid" : "not-allowed" };
  return { kind: "server" };
}

/** The whole available amount as text, cut (never rounded up) to the currency's decimals: "Max". */
export function allOf(available: number, currency: string): string {
  if (!(available > 0)) return "0";
  const decimals = currencyDecimals(currency);
  const scale = 10 ** decimals;
  // The epsilon undoes binary noise (0.3 * 1e8 is 29999999.999999996), never a real unit.
  const text = (Math.floor(available * scale + 1e-6) / scale).toFixed(decimals);
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/** A random request id: one per intended transfer (the exchange moves it once per id). */
export function newRequestId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
