import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { emailValid } from "../protocol";
import { openingHttp, requestPasswordReset } from "../ui/session";
import * as css from "./pages.css";

/**
 * Asks for a password-reset link. The answer is the same whether or not the address has an account
 * (the exchange's is too): the page never tells who has one.
 */
export function ForgotPasswordPage() {
  const { t } = useLingui();
  const [email, setEmail] = useState("");
  const [touched, setTouched] = useState(false);
  const [state, setState] = useState<"form" | "sending" | "sent" | "rate-limited" | "failed">("form");
  const problem =
    email.trim() === ""
      ? t`Enter your e-mail address.`
      : emailValid(email.trim())
        ? null
        : t`Enter a valid e-mail address, like name@example.com.`;

  async function submit(e: FormEvent): Promise<void> {
    e.preventDefault();
    setTouched(true);
    if (problem) return;
    setState("sending");
    const r = await requestPasswordReset(openingHttp(), email.trim());
    setState(r.ok ? "sent" : r.error.kind === "rate-limited" ? "rate-limited" : "failed");
  }

  const address = email.trim();
  if (state === "sent")
    return (
      <section className={css.hero} data-testid="reset-requested">
        <h1 className={css.h1}>
          <Trans>Check your mail</Trans>
        </h1>
        <p className={css.lead} role="status">
          <Trans>
            If an account uses {address}, we have sent it a link to choose a new password. The link works once, for 30
            minutes.
          </Trans>
        </p>
        <a className={css.cta} href="/login">
          <Trans>Back to sign in</Trans>
        </a>
      </section>
    );

  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Forgot your password?</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>Enter the e-mail address of your account and we will send you a link to choose a new password.</Trans>
      </p>
      <form className={css.form} noValidate onSubmit={(e) => void submit(e)} data-testid="forgot-form">
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
        {(state === "rate-limited" || state === "failed") && (
          <p className={css.alert} role="alert">
            {state === "rate-limited"
              ? t`Too many requests from this connection. Wait a quarter of an hour, then try again.`
              : t`The exchange could not be reached. Check your connection, then try again.`}
          </p>
        )}
        <div className={css.actions}>
          <button type="submit" className={css.cta} disabled={state === "sending"}>
            {state === "sending" ? t`Sending…` : t`Send the reset link`}
          </button>
          <a href="/login">
            <Trans>Back to sign in</Trans>
          </a>
        </div>
      </form>
    </section>
  );
}
