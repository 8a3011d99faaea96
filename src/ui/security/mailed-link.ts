import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import type { SettingsError, SettingsResult } from "./settings-api";

/** Where a mailed link's page is: checking the link, asking the owner, or decided either way. */
export type MailedLinkState<T> =
  | { readonly kind: "checking" }
  | { readonly kind: "ask"; readonly subject: T }
  | { readonly kind: "confirmed" }
  | { readonly kind: "cancelled" };

export interface MailedLink<T> {
  readonly state: MailedLinkState<T>;
  readonly error: SettingsError | null;
  /** True while a decision is on its way: the page's buttons wait. */
  readonly busy: boolean;
  readonly decide: (confirm: boolean) => Promise<void>;
}

/**
 * A mailed link that asks its owner before doing anything, so a mail scanner opening it changes
 * nothing (a security change that waits, a sign-in from a new address): checks `token` with
 * `check`, then applies the owner's answer with `decide`. A link used, cancelled, replaced or
 * expired goes to `invalidTo` (an `/invalid-token?kind=…` page) in place of this one.
 * `check` and `decide` must keep their identity across renders (module-level calls).
 */
export function useMailedLink<T>(
  token: string,
  check: (token: string) => Promise<SettingsResult<T>>,
  decideCall: (token: string, confirm: boolean) => Promise<SettingsResult<true>>,
  invalidTo: string,
): MailedLink<T> {
  const [, navigate] = useLocation();
  const [state, setState] = useState<MailedLinkState<T>>({ kind: "checking" });
  const [error, setError] = useState<SettingsError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void check(token).then((r) => {
      if (!live) return;
      if (r.ok) setState({ kind: "ask", subject: r.value });
      else if (r.error.kind === "invalid-token") navigate(invalidTo, { replace: true });
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [token, check, invalidTo, navigate]);

  async function decide(confirm: boolean): Promise<void> {
    setBusy(true);
    setError(null);
    const r = await decideCall(token, confirm);
    setBusy(false);
    if (r.ok) setState({ kind: confirm ? "confirmed" : "cancelled" });
    else if (r.error.kind === "invalid-token") navigate(invalidTo, { replace: true });
    else setError(r.error);
  }

  return { state, error, busy, decide };
}
