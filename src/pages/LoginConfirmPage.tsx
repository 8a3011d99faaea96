import { Trans, useLingui } from "@lingui/react/macro";
import { useSearch } from "wouter";
import { useMailedLink } from "../ui/security/mailed-link";
import { checkHeldSignIn, decideHeldSignIn } from "../ui/security/settings-api";
import { useSettingsErrorText } from "../ui/security/SecuritySettings";
import * as css from "./pages.css";

/**
 * The mailed link of a sign-in from a new address (`/login-confirm?token=…`;
 * docs/product-rules.md#account-security-settings): shows where the sign-in came from and asks
 * before doing anything, so a mail scanner opening the link confirms nothing. Confirming lets that
 * address sign in; cancelling keeps it out. A link used, cancelled or expired goes to
 * `/invalid-token?kind=login`.
 */
export function LoginConfirmPage() {
  const { t, i18n } = useLingui();
  const errorText = useSettingsErrorText();
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const { state, error, busy, decide } = useMailedLink(
    token,
    checkHeldSignIn,
    decideHeldSignIn,
    "/invalid-token?kind=login",
  );

  return (
    <section className={css.hero} data-testid="login-confirm">
      <h1 className={css.h1}>
        <Trans>Confirm a sign-in</Trans>
      </h1>
      {error !== null && (
        <p className={css.alert} role="alert">
          {errorText(error)}
        </p>
      )}
      {state.kind === "checking" && error === null && (
        <p className={css.lead} role="status">
          <Trans>Checking the link…</Trans>
        </p>
      )}
      {state.kind === "ask" && (
        <>
          <p className={css.lead}>
            <Trans>
              Someone signed in to your account with your password from an address it was never used from. Was it you?
            </Trans>
          </p>
          <dl className={css.card}>
            <dt className={css.muted}>
              <Trans>Address</Trans>
            </dt>
            <dd>{state.subject.address}</dd>
            <dt className={css.muted}>
              <Trans>Browser</Trans>
            </dt>
            <dd>{state.subject.agent === "" ? t`Unknown device` : state.subject.agent}</dd>
            <dt className={css.muted}>
              <Trans>When</Trans>
            </dt>
            <dd>{i18n.date(new Date(state.subject.created), { dateStyle: "medium", timeStyle: "short" })}</dd>
          </dl>
          <div className={css.actions}>
            <button type="button" className={css.cta} disabled={busy} onClick={() => void decide(true)}>
              <Trans>Yes, confirm this sign-in</Trans>
            </button>
            <button type="button" className={css.ctaGhost} disabled={busy} onClick={() => void decide(false)}>
              <Trans>No, it was not me</Trans>
            </button>
          </div>
        </>
      )}
      {state.kind === "confirmed" && (
        <>
          <p className={css.lead} role="status">
            <Trans>The address is confirmed. Sign in again from it: this time the sign-in goes through.</Trans>
          </p>
          <a className={css.cta} href="/login">
            <Trans>Sign in</Trans>
          </a>
        </>
      )}
      {state.kind === "cancelled" && (
        <>
          <p className={css.lead} role="status">
            <Trans>
              The sign-in stays blocked. Someone who knows your password tried it: choose a new password now.
            </Trans>
          </p>
          <a className={css.cta} href="/forgot-password">
            <Trans>Choose a new password</Trans>
          </a>
        </>
      )}
    </section>
  );
}
