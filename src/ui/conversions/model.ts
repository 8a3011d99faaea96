/**
 * The conversion dialog's rules, framework-free (docs/product-rules.md#conversions): the states
 * idle → quoting → quoted → converting → succeeded | failed, with the currency-agreement step
 * between when a currency of the conversion needs terms the account has not accepted
 * (docs/product-rules.md#currency-agreements): the conversion waits in `agreement` and goes on to
 * its quote once they are accepted.
 *
 * The form is checked by the rules the exchange applies (src/protocol conversions.ts) before
 * anything is sent. A quote holds for its lifetime counted from when it arrived (the exchange's
 * `expires - mts`, so a skewed clock on either side does not shorten or stretch it); once it has
 * run out the dialog says so and offers a new one, and the exchange refuses it anyway. A
 * conversion whose answer was lost keeps its quote: converting again sends the same quote, which
 * the exchange converts at most once. The form's values live with the dialog; nothing here
 * forgets what was typed.
 */
import {
  agreementOf,
  agreementsMissing,
  conversionProblem,
  currencyDecimals,
  type Conversion,
  type ConversionQuote,
  type ConversionRequest,
} from "../../protocol";
import { acceptAgreement, convertAtQuote, fetchAgreements, requestQuote, type Call, type ConversionError } from "./api";

export type ConversionState =
  | { readonly status: "idle" }
  | { readonly status: "quoting" }
  /** The conversion waits for `currency`'s agreement; `accepting` while the acceptance is sent. */
  | {
      readonly status: "agreement";
      readonly currency: string;
      readonly accepting: boolean;
      readonly error: ConversionError | null;
    }
  | { readonly status: "quoted"; readonly quote: ConversionQuote; readonly expiresAt: number }
  | { readonly status: "converting"; readonly quote: ConversionQuote; readonly expiresAt: number }
  | { readonly status: "succeeded"; readonly done: Conversion }
  /** `quote` is kept when converting at it again is safe and may still work (the answer was lost). */
  | {
      readonly status: "failed";
      readonly error: ConversionError;
      readonly quote: ConversionQuote | null;
      readonly expiresAt: number;
    };

export interface ConversionEnv {
  readonly call: Call;
  /** The browser's clock (epoch ms). */
  readonly now: () => number;
}

/** What is wrong with the form before asking for a quote, or null. `available` is the wallet's free amount of `from`. */
export function conversionFormError(f: ConversionRequest, available: number): ConversionError | null {
  const problem = conversionProblem(f);
  if (problem !== null) return { kind: "refused", refusal: problem, currency: null };
  return Number(f.amount.trim()) > available ? { kind: "refused", refusal: "insufficient", currency: null } : null;
}

/** Whole seconds left of a quote at `now` (0 once it has run out). */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** The whole available amount as text, cut (never rounded up) to the currency's decimals: the "Max" button. */
export function maxAmount(available: number, currency: string): string {
  if (!(available > 0)) return "0";
  const decimals = currencyDecimals(currency);
  const scale = 10 ** decimals;
  // The epsilon undoes binary noise (0.3 * 1e8 is 29999999.999999996), never a real unit.
  const text = (Math.floor(available * scale + 1e-6) / scale).toFixed(decimals);
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

export class ConversionModel {
  readonly #env: ConversionEnv;
  #state: ConversionState = { status: "idle" };
  readonly #listeners = new Set<() => void>();
  /** The account's accepted agreements: currency → version. */
  readonly #accepted = new Map<string, string>();
  #loading: Promise<void> | null = null;
  /** The conversion waiting for an agreement, to quote once it is accepted. */
  #pending: { readonly form: ConversionRequest; readonly available: number } | null = null;
  /** Bumped by every change of the form: an answer to an older form is dropped. */
  #generation = 0;

  constructor(env: ConversionEnv) {
    this.#env = env;
  }

  readonly subscribe = (fn: () => void): (() => void) => {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  };

  readonly state = (): ConversionState => this.#state;

  /**
   * Reads the account's accepted agreements (once; later calls wait for the same read). A failed
   * read leaves none known: the exchange's own refusal then brings the agreement step.
   */
  load(): Promise<void> {
    this.#loading ??= fetchAgreements(this.#env.call).then((r) => {
      if (r.ok) for (const a of r.value) this.#accepted.set(a.currency, a.version);
    });
    return this.#loading;
  }

  /** The form changed: a quote (or an outcome) for the old values no longer applies. */
  edited(): void {
    if (this.#state.status === "converting" || (this.#state.status === "agreement" && this.#state.accepting)) return;
    this.#generation++;
    this.#pending = null;
    if (this.#state.status !== "idle") this.#set({ status: "idle" });
  }

  /** Checks the form, takes the agreement step if one is missing, else asks for a quote. */
  async quote(form: ConversionRequest, available: number): Promise<ConversionState> {
    const s = this.#state.status;
    if (s === "quoting" || s === "converting" || s === "agreement") return this.#state;
    const problem = conversionFormError(form, available);
    if (problem !== null) return this.#set({ status: "failed", error: problem, quote: null, expiresAt: 0 });
    const generation = ++this.#generation;
    this.#set({ status: "quoting" });
    await this.load();
    if (generation !== this.#generation) return this.#state;
    const missing = agreementsMissing([form.from, form.to], this.#accepted)[0];
    if (missing !== undefined) return this.#askAgreement(missing, form, available);
    const r = await requestQuote(this.#env.call, form);
    if (generation !== this.#generation) return this.#state;
    if (r.ok) return this.#set({ status: "quoted", quote: r.value, expiresAt: this.#expiresAt(r.value) });
    // The exchange knows of an agreement this dialog did not (a new version, a failed read).
    if (r.error.kind === "refused" && r.error.refusal === "agreement" && r.error.currency !== null) {
      this.#accepted.delete(r.error.currency);
      return this.#askAgreement(r.error.currency, form, available);
    }
    return this.#set({ status: "failed", error: r.error, quote: null, expiresAt: 0 });
  }

  /** Accepts the agreement the conversion waits for, then goes on to its quote. */
  async accept(): Promise<ConversionState> {
    const st = this.#state;
    const pending = this.#pending;
    if (st.status !== "agreement" || st.accepting || pending === null) return st;
    const agreement = agreementOf(st.currency);
    if (agreement === null) return this.#set({ status: "idle" });
    this.#set({ ...st, accepting: true, error: null });
    const r = await acceptAgreement(this.#env.call, st.currency, agreement.version);
    if (!r.ok) return this.#set({ ...st, accepting: false, error: r.error });
    this.#accepted.set(r.value.currency, r.value.version);
    this.#pending = null;
    this.#set({ status: "idle" });
    return this.quote(pending.form, pending.available);
  }

  /** Declines the agreement: nothing is asked, the form stays as it was. */
  cancelAgreement(): void {
    if (this.#state.status !== "agreement" || this.#state.accepting) return;
    this.#pending = null;
    this.#set({ status: "idle" });
  }

  /** Converts at the quote shown; refused here, without a call, once it has run out. */
  async convert(): Promise<ConversionState> {
    const st = this.#state;
    const held = st.status === "quoted" || (st.status === "failed" && st.quote !== null) ? st : null;
    if (held === null || held.quote === null) return st;
    const { quote, expiresAt } = held;
    if (this.#env.now() >= expiresAt)
      return this.#set({
        status: "failed",
        error: { kind: "refused", refusal: "expired", currency: null },
        quote: null,
        expiresAt: 0,
      });
    this.#set({ status: "converting", quote, expiresAt });
    const r = await convertAtQuote(this.#env.call, quote.id);
    if (r.ok) {
      this.#generation++;
      return this.#set({ status: "succeeded", done: r.value });
    }
    // Only a lost or unreadable answer leaves the quote worth converting at again.
    const retry = r.error.kind === "unreachable" || r.error.kind === "server";
    return this.#set({ status: "failed", error: r.error, quote: retry ? quote : null, expiresAt });
  }

  /** Whether the quote shown has run out at `now`. */
  expired(now: number): boolean {
    const st = this.#state;
    return (st.status === "quoted" || st.status === "failed") && st.quote !== null && now >= st.expiresAt;
  }

  #askAgreement(currency: string, form: ConversionRequest, available: number): ConversionState {
    this.#pending = { form, available };
    return this.#set({ status: "agreement", currency, accepting: false, error: null });
  }

  /** When the quote runs out on this clock: its lifetime from the exchange, counted from now. */
  #expiresAt(q: ConversionQuote): number {
    return this.#env.now() + (q.expires - q.mts);
  }

  #set(s: ConversionState): ConversionState {
    this.#state = s;
    for (const fn of this.#listeners) fn();
    return s;
  }
}
