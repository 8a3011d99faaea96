import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { useSearch } from "wouter";
import { emailValid } from "../protocol";
import { openingHttp, resendConfirmation } from "../ui/session";
import * as css from "./pages.css";

/**
 * Where a mailed link that no longer works lands (`?kind=signup` from the e-mail confirmation,
 * `?kind=reset` from a password reset, `?kind=login` and `?kind=security` from the security settings'
 * links): why, and the way to a new link.
 */
export function InvalidTokenPage() {
  const kind = new URLSearchParams(useSearch()).get("kind");
  return (
    <section className={css.hero} data-testid="invalid-token">
      <h1 className={css.h1}>
        <Trans>This link does not work</Trans>
      </h1>
      {kind === "login" || kind === "security" ? (
        <p className={css.lead}>
          <Trans>
            It was used already, cancelled, replaced by a newer mail, or it has expired: a link that confirms a sign-in
            works for 30 minutes, one that confirms a security change for 1 hour.
          </Trans>
        </p>
      ) : (
        <p className={css.lead}>
          <Trans>
            It was used already, it has expired, or it was not copied whole. Links in our mails work once: a
            confirmation link for 24 hours, a password-reset link for 30 minutes.
          </Trans>
        </p>
      )}
      {kind === "login" || kind === "security" ? (
        // The security settings' links (a new address's sign-in, a pending change): a new one comes
        // by signing in again, or by asking for the change again.
        <div className={css.actions}>
          <a className={css.cta} href={kind === "login" ? "/login" : "/security"}>
            {kind === "login" ? <Trans>Sign in</Trans> : <Trans>Go to your security settings</Trans>}
          </a>
        </div>
      ) : kind === "reset" ? (
        <div className={css.actions}>
          <a className={css.cta} href="/forgot-password">
            <Trans>Ask for a new reset link</Trans>
          </a>
          <a className={css.ctaGhost} href="/login">
            <Trans>Sign in</Trans>
          </a>
        </div>
      ) : (
        <NewConfirmationLink />
      )}
    </section>
  );
}

/** A new confirmation link for an address not confirmed yet (the exchange answers alike for any address). */
function NewConfirmationLink() {
  const { t } = useLingui();
  const [email, setEmail] = useState("");
  const [touched, setTouched] = useState(false);
  const [status, setStatus] = useState<"idle" | "sending" | "sent" | "failed">("idle");
  const problem = emailValid(email.trim()) ? null : t`Enter a valid e-mail address, like name@example.com.`;

  async function submit(e: FormEvent): Promise<void> {
    e.preventDefault();
    setTouched(true);
    if (problem) return;
    setStatus("sending");
    const r = await resendConfirmation(openingHttp(), email.trim());
    setStatus(r.ok ? "sent" : "failed");
  }

  return (
    <>
      <p>
        <Trans>If your e-mail is confirmed already, just sign in. If not, we can send a new confirmation link.</Trans>
      </p>
      <form className={css.form} noValidate onSubmit={(e) => void submit(e)}>
        <label className={css.field}>
          <span>
            <Trans>E-mail address</Trans>
          </span>
          <input
            className={css.input}
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            aria-invalid={touched && problem !== null}
            onChange={(e) => setEmail(e.target.value)}
          />
          {touched && problem && <span className={css.fieldError}>{problem}</span>}
        </label>
        <div className={css.actions}>
          <button type="submit" className={css.cta} disabled={status === "sending"}>
            <Trans>Send a new link</Trans>
          </button>
          <a href="/login">
            <Trans>Sign in</Trans>
          </a>
        </div>
        <p role="status">
          {status === "sent" &&
            t`If this address has an account waiting for confirmation, a new link is on its way. Wait a minute before asking again.`}
          {status === "failed" && t`The mail could not be sent. Try again in a moment.`}
        </p>
      </form>
    </>
  );
}
