/**
 * The OTC page's rules, framework-free (docs/product-rules.md#otc-block-trades): the states
 * idle → quoting → quoted → accepting → accepted | failed. The form is checked by the rules the
 * exchange applies (src/protocol otc.ts) before anything is sent. A quote holds for its lifetime
 * counted from when it arrived (the exchange's `expires - mts`, so a skewed clock on either side does
 * not shorten or stretch it); once it has run out Accept is refused here, without a call, and the
 * exchange refuses it anyway. The form's values live with the page; nothing here forgets what was typed.
 */
import { otcProblem, type OtcQuote, type OtcRequest, type OtcTrade } from "../../protocol";
import { acceptOtcQuote, requestOtcQuote, type Call, type OtcError } from "./api";

export type OtcState =
  | { readonly status: "idle" }
  | { readonly status: "quoting" }
  | { readonly status: "quoted"; readonly quote: OtcQuote; readonly expiresAt: number }
  | { readonly status: "accepting"; readonly quote: OtcQuote; readonly expiresAt: number }
  | { readonly status: "accepted"; readonly trade: OtcTrade }
  /** `quote` is kept when accepting it again may still work (the answer was lost). */
  | {
      readonly status: "failed";
      readonly error: OtcError;
      readonly quote: OtcQuote | null;
      readonly expiresAt: number;
    };

export interface OtcEnv {
  readonly call: Call;
  /** The browser's clock (epoch ms). */
  readonly now: () => number;
}

/** What is wrong with the form before asking for a quote, or null. */
export function otcFormError(f: OtcRequest): OtcError | null {
  const problem = otcProblem(f);
  return problem === null ? null : { kind: "refused", refusal: problem };
}

/** The quote a state shows, with when it runs out on this clock. */
export function shownQuote(s: OtcState): { readonly quote: OtcQuote; readonly expiresAt: number } | null {
  if (s.status === "quoted" || s.status === "accepting") return s;
  if (s.status === "failed" && s.quote !== null) return { quote: s.quote, expiresAt: s.expiresAt };
  return null;
}

export class OtcModel {
  readonly #env: OtcEnv;
  #state: OtcState = { status: "idle" };
  readonly #listeners = new Set<() => void>();
  /** Bumped by every change of the form: an answer to an older form is dropped. */
  #generation = 0;

  constructor(env: OtcEnv) {
    this.#env = env;
  }

  readonly subscribe = (fn: () => void): (() => void) => {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  };

  readonly state = (): OtcState => this.#state;

  /** The form changed: a quote (or an outcome) for the old values no longer applies. */
  edited(): void {
    if (this.#state.status === "accepting") return;
    this.#generation++;
    if (this.#state.status !== "idle") this.#set({ status: "idle" });
  }

  /** Checks the form, then asks for a quote (a new one replaces the one shown). */
  async quote(form: OtcRequest): Promise<OtcState> {
    const s = this.#state.status;
    if (s === "quoting" || s === "accepting") return this.#state;
    const problem = otcFormError(form);
    if (problem !== null) return this.#set({ status: "failed", error: problem, quote: null, expiresAt: 0 });
    const generation = ++this.#generation;
    this.#set({ status: "quoting" });
    const r = await requestOtcQuote(this.#env.call, form);
    if (generation !== this.#generation) return this.#state;
    if (!r.ok) return this.#set({ status: "failed", error: r.error, quote: null, expiresAt: 0 });
    return this.#set({
      status: "quoted",
      quote: r.value,
      expiresAt: this.#env.now() + (r.value.expires - r.value.mts),
    });
  }

  /** Accepts the quote shown; refused here, without a call, once it has run out. */
  async accept(): Promise<OtcState> {
    const held = shownQuote(this.#state);
    if (held === null || this.#state.status === "accepting") return this.#state;
    const { quote, expiresAt } = held;
    if (this.#env.now() >= expiresAt)
      return this.#set({ status: "failed", error: { kind: "refused", refusal: "expired" }, quote: null, expiresAt: 0 });
    this.#set({ status: "accepting", quote, expiresAt });
    const r = await acceptOtcQuote(this.#env.call, quote.id);
    if (r.ok) {
      this.#generation++;
      return this.#set({ status: "accepted", trade: r.value });
    }
    // Only a lost or unreadable answer leaves the quote worth accepting again: a refusal (expired,
    // already accepted, the balance) ends it, and a new quote is the way on.
    const retry = r.error.kind === "unreachable" || r.error.kind === "server";
    return this.#set({ status: "failed", error: r.error, quote: retry ? quote : null, expiresAt });
  }

  /** Whether the quote shown has run out at `now`. */
  expired(now: number): boolean {
    const shown = shownQuote(this.#state);
    return shown !== null && this.#state.status !== "accepting" && now >= shown.expiresAt;
  }

  #set(s: OtcState): OtcState {
    this.#state = s;
    for (const fn of this.#listeners) fn();
    return s;
  }
}
