/**
 * The derivatives terms gate before a user's first derivatives order, and the refusals that are
 * the derivatives' own (docs/product-rules.md#derivatives). Acceptance is remembered per account
 * in the exchange's settings (`w/settings/set`), as the desk's other account settings are, so it
 * follows the user to another browser; framework-free, over an injected signed-in call.
 */

/** The exchange settings key that records the acceptance (the epoch ms it was given). */
export const DERIV_TERMS_SETTING = "derivatives_terms_accepted";

/** A signed-in call: path and body, the reply (status 0 when unreachable). */
export type SettingsCall = (
  path: string,
  body: unknown,
) => Promise<{ readonly status: number; readonly body: unknown }>;

export interface DerivTermsGate {
  /** Whether the account has accepted; false when the exchange cannot say (the dialog asks again). */
  accepted(): Promise<boolean>;
  /** Records the acceptance; false when the exchange did not store it. */
  accept(now: number): Promise<boolean>;
}

/**
 * The gate over `call`. A positive answer is kept for the account it was read for (`account()`,
 * the session's token), so the dialog's check costs one request per sign-in, not one per order.
 */
export function derivTermsGate(call: SettingsCall, account: () => string): DerivTermsGate {
  let acceptedFor: string | null = null;
  return {
    async accepted() {
      const who = account();
      if (who !== "" && acceptedFor === who) return true;
      const reply = await call("/v2/auth/r/settings", { keys: [DERIV_TERMS_SETTING] }).catch(() => null);
      if (!reply || reply.status !== 200 || !Array.isArray(reply.body)) return false;
      const row = (reply.body as unknown[]).find((r) => Array.isArray(r) && r[0] === DERIV_TERMS_SETTING);
      const ok = Array.isArray(row) && typeof row[1] === "number" && row[1] > 0;
      if (ok) acceptedFor = who;
      return ok;
    },
    async accept(now) {
      const who = account();
      const reply = await call("/v2/auth/w/settings/set", { settings: { [DERIV_TERMS_SETTING]: now } }).catch(
        () => null,
      );
      const ok = reply !== null && reply.status === 200;
      if (ok) acceptedFor = who;
      return ok;
    },
  };
}

/**
 * Whether an order refusal is the derivatives ban for residents of Spain: the exchange knows the
 * account's country and refuses with a text naming it; the form then says so in the user's words.
 */
export function isSpainRefusal(text: string): boolean {
  return /\bspain\b/i.test(text);
}
