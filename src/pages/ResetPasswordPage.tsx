import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type FormEvent } from "react";
import { useLocation, useSearch } from "wouter";
import { checkResetToken, openingHttp, resetPassword, type OpeningError } from "../ui/session";
import * as css from "./pages.css";
import { SignupPasswordRules, usePasswordProblemText } from "./SignupPasswordRules";

/**
 * The reset link's page (`/reset-password?token=…`): checks the link first (a dead one goes to
 * `/invalid-token?kind=reset`), then takes a new password by the sign-up's rules. On success every
 * session of the account has ended, this one included.
 */
export function ResetPasswordPage() {
  const { t } = useLingui();
  const search = useSearch();
  const [, navigate] = useLocation();
  const token = new URLSearchParams(search).get("token") ?? "";
  const [state, setState] = useState<"checking" | "form" | "saving" | "done">("checking");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<OpeningError | null>(null);
  const passwordText = usePasswordProblemText();

  useEffect(() => {
    let live = true;
    void checkResetToken(openingHttp(), token).then((r) => {
      if (!live) return;
      if (r.ok) setState("form");
      else if (r.error.kind === "invalid-token") navigate("/invalid-token?kind=reset", { replace: true });
      else {
        setError(r.error);
        setState("form");
      }
    });
    return () => {
      live = false;
    };
  }, [token, navigate]);

  // The account's name is not known here: the exchange checks the identity rule and says so.
  const problem = passwordText(password, { username: "", email: "" });
  const mismatch = repeat !== password ? t`The two passwords are not the same.` : null;

  async function submit(e: FormEvent): Promise<void> {
    e.preventDefault();
    setTouched(true);
    setError(null);
    if (problem || mismatch) return;
    setState("saving");
    const r = await resetPassword(openingHttp(), token, password);
    if (r.ok) {
      setPassword("");
      setRepeat("");
      setState("done");
    } else if (r.error.kind === "invalid-token") navigate("/invalid-token?kind=reset", { replace: true });
    else {
      setError(r.error);
      setState("form");
    }
  }

  if (state === "done")
    return (
      <section className={css.hero} data-testid="reset-done">
        <h1 className={css.h1}>
          <Trans>Your password is changed</Trans>
        </h1>
        <p className={css.lead}>
          <Trans>
            Every device that was signed in to your account has been signed out. Sign in with the new password.
          </Trans>
        </p>
        <a className={css.cta} href="/login">
          <Trans>Sign in</Trans>
        </a>
      </section>
    );

  const alert =
    error === null
      ? null
      : error.kind === "field" && error.field === "password"
        ? error.reason.includes("not-identity")
          ? t`The password must not contain your username or e-mail name.`
          : t`The password does not meet every rule below.`
        : error.kind === "rate-limited"
          ? t`Too many attempts. Wait a minute, then try again.`
          : error.kind === "unreachable"
            ? t`The exchange could not be reached. Check your connection, then try again.`
            : t`The exchange had a problem answering. Try again in a moment.`;

  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Choose a new password</Trans>
      </h1>
      {state === "checking" ? (
        <p className={css.lead} role="status">
          <Trans>Checking the link…</Trans>
        </p>
      ) : (
        <form className={css.form} noValidate onSubmit={(e) => void submit(e)} data-testid="reset-form">
          <label className={css.field}>
            <span>
              <Trans>New password</Trans>
            </span>
            <input
              className={css.input}
              name="new-password"
              type="password"
              autoComplete="new-password"
              value={password}
              aria-invalid={touched && problem !== null}
              aria-describedby="reset-password-rules"
              onChange={(e) => setPassword(e.target.value)}
            />
            {touched && problem && <span className={css.fieldError}>{problem}</span>}
          </label>
          <SignupPasswordRules id="reset-password-rules" password={password} username="" email="" />
          <label className={css.field}>
            <span>
              <Trans>New password again</Trans>
            </span>
            <input
              className={css.input}
              name="repeat-password"
              type="password"
              autoComplete="new-password"
              value={repeat}
              aria-invalid={touched && mismatch !== null}
              onChange={(e) => setRepeat(e.target.value)}
            />
            {touched && mismatch && <span className={css.fieldError}>{mismatch}</span>}
          </label>
          {alert && (
            <p className={css.alert} role="alert">
              {alert}
            </p>
          )}
          <div className={css.actions}>
            <button type="submit" className={css.cta} disabled={state === "saving"}>
              {state === "saving" ? t`Saving…` : t`Change password`}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
