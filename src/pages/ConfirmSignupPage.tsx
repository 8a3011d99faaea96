import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { confirmEmail, openingHttp } from "../ui/session";
import * as css from "./pages.css";

/**
 * The mailed confirmation link (`/confirm-signup?hash=…`): the sign-up's COMPLETE step once the
 * exchange takes the hash; a used, expired or mistyped link goes to `/invalid-token`.
 */
export function ConfirmSignupPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const hash = new URLSearchParams(search).get("hash") ?? "";
  const [state, setState] = useState<"checking" | "done" | "unreachable">("checking");

  useEffect(() => {
    let live = true;
    void confirmEmail(openingHttp(), hash).then((r) => {
      if (!live) return;
      if (r.ok) setState("done");
      else if (r.error.kind === "invalid-token") navigate("/invalid-token?kind=signup", { replace: true });
      else setState("unreachable");
    });
    return () => {
      live = false;
    };
  }, [hash, navigate]);

  if (state === "checking")
    return (
      <section className={css.hero}>
        <h1 className={css.h1}>
          <Trans>Confirming your e-mail address…</Trans>
        </h1>
      </section>
    );
  if (state === "unreachable")
    return (
      <section className={css.hero}>
        <h1 className={css.h1}>
          <Trans>We could not confirm your e-mail yet</Trans>
        </h1>
        <p className={css.alert} role="alert">
          <Trans>The exchange could not be reached. Check your connection, then open the link again.</Trans>
        </p>
      </section>
    );
  return (
    <section className={css.hero} data-testid="signup-complete">
      <h1 className={css.h1}>
        <Trans>Your account is ready</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>
          Your e-mail address is confirmed. Sign in to start trading with your paper balances, then turn on two-factor
          authentication on the security page.
        </Trans>
      </p>
      <div className={css.actions}>
        <a className={css.cta} href="/login?back=%2Ftradedesk">
          <Trans>Sign in</Trans>
        </a>
        <a className={css.ctaGhost} href="/security">
          <Trans>Set up two-factor authentication</Trans>
        </a>
      </div>
    </section>
  );
}
