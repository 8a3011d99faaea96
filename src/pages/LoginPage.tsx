import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useLocation, useSearch } from "wouter";
import { safeBackTarget } from "../ui/routing/paths";
import { useSecondsUntil } from "../ui/security/factor-parts";
import {
  newCaptcha,
  passCaptcha,
  requestSmsCode,
  signIn,
  signInWithApiKey,
  verifyTwoFactor,
  verifyWithKey,
  type CaptchaChallenge,
  type CaptchaSolution,
  type LoginError,
  type LoginOutcome,
} from "../ui/session";
import * as css from "./pages.css";
import * as s from "./session.css";

type Method = "password" | "apiKey";
type Step =
  | { readonly kind: "credentials" }
  | { readonly kind: "captcha"; readonly challenge: CaptchaChallenge }
  | { readonly kind: "two-factor"; readonly tempToken: string; readonly methods: readonly string[] }
  /** A sign-in from an address new to the account waits for the link mailed to its owner. */
  | { readonly kind: "confirm-mail" };
/** The captcha's work on one challenge, done by this tab while the person finishes the form. */
type Check = { readonly challenge: CaptchaChallenge | null } & (
  | { readonly state: "checking" }
  | { readonly state: "passed"; readonly solution: CaptchaSolution }
  | { readonly state: "failed" }
);

/** The two-factor step's "send again" for a texted code: counts down to `at`, then texts again. */
function SmsResend({ at, busy, onSend }: { readonly at: number; readonly busy: boolean; readonly onSend: () => void }) {
  const { t } = useLingui();
  const seconds = useSecondsUntil(at);
  // While it counts down it is words, not a button that looks pressable.
  if (seconds > 0) return <span className={s.hint}>{t`Send again in ${seconds} s`}</span>;
  return (
    <button type="button" className={s.linkButton} disabled={busy} onClick={onSend}>
      {t`Send the code again`}
    </button>
  );
}

export function LoginPage() {
  const { t } = useLingui();
  const search = useSearch();
  const [, navigate] = useLocation();
  const forced = new URLSearchParams(search).get("forced") === "1";
  const [method, setMethod] = useState<Method>("password");
  const [step, setStep] = useState<Step>({ kind: "credentials" });
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [checked, setChecked] = useState<Check>({ challenge: null, state: "checking" });
  // The running check's result, which a Sign in pressed before it has passed waits for.
  const pendingCheck = useRef<Promise<CaptchaSolution | null> | null>(null);
  const [otp, setOtp] = useState("");
  // The two-factor step's texted code: where it went (masked) and when another may be asked for.
  const [sms, setSms] = useState<{ readonly phone: string; readonly resendAt: number } | null>(null);
  const textedTo = sms?.phone ?? "";
  const [apiKey, setApiKey] = useState("");
  // The API secret is read from the field once, at submit, and never held in React state.
  const secretRef = useRef<HTMLInputElement>(null);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LoginError | null>(null);

  function apply(out: LoginOutcome): void {
    switch (out.kind) {
      case "signed-in":
        navigate(safeBackTarget(search), { replace: true });
        return;
      case "captcha":
        // A new step object: the effect below starts the work on its challenge.
        setStep({ kind: "captcha", challenge: out.challenge });
        setError(out.error);
        return;
      case "two-factor":
        setStep({ kind: "two-factor", tempToken: out.tempToken, methods: out.methods });
        setOtp("");
        setSms(null);
        setTouched(false);
        setError(null);
        return;
      case "confirm-mail":
        setStep({ kind: "confirm-mail" });
        setError(null);
        return;
      case "error":
        if (out.error === "expired") setStep({ kind: "credentials" });
        setError(out.error);
        return;
      default: {
        const never: never = out;
        return never;
      }
    }
  }

  // The state of the current challenge's check: a result of an earlier one is never shown for it.
  const check: Check =
    step.kind === "captcha" && checked.challenge === step.challenge ? checked : { challenge: null, state: "checking" };

  useEffect(() => {
    if (step.kind !== "captcha") return;
    const { challenge } = step;
    const controller = new AbortController();
    const work = passCaptcha(challenge, controller);
    pendingCheck.current = work;
    void work.then((solution) => {
      if (controller.signal.aborted) return;
      setChecked(solution ? { challenge, state: "passed", solution } : { challenge, state: "failed" });
    });
    return () => {
      controller.abort();
      pendingCheck.current = null;
    };
  }, [step]);

  async function run(action: () => Promise<LoginOutcome>): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      apply(await action());
    } finally {
      setBusy(false);
    }
  }

  /** Texts a sign-in code to the account's phone (server/sms.ts); the code field then takes it. */
  async function textCode(tempToken: string): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      const r = await requestSmsCode(tempToken);
      if (r.kind === "sent") {
        setSms({ phone: r.phone, resendAt: r.resendAt });
        setOtp("");
        setTouched(false);
      } else {
        if (r.error === "expired") setStep({ kind: "credentials" });
        setError(r.error);
      }
    } finally {
      setBusy(false);
    }
  }

  function switchMethod(next: Method): void {
    setMethod(next);
    setStep({ kind: "credentials" });
    setTouched(false);
    setError(null);
  }

  async function submitPassword(e: FormEvent): Promise<void> {
    e.preventDefault();
    setTouched(true);
    if (step.kind === "two-factor") {
      if (otp.trim() === "") return;
      await run(() => verifyTwoFactor(step.tempToken, otp, sms ? "sms" : "otp"));
      return;
    }
    if (login.trim() === "" || password === "") return;
    if (step.kind === "captcha") {
      const work = pendingCheck.current;
      // A check that could not finish runs again on a new challenge, as its own button does.
      if (check.state === "failed" || !work) {
        await run(newCaptcha);
        return;
      }
      setBusy(true);
      const solution = await work;
      setBusy(false);
      // A check that could not finish says so, with its retry, in the status below.
      if (!solution) return;
      await run(() => signIn({ login: login.trim(), password, captcha: solution }));
      return;
    }
    await run(() => signIn({ login: login.trim(), password }));
  }

  async function submitApiKey(e: FormEvent): Promise<void> {
    e.preventDefault();
    setTouched(true);
    const field = secretRef.current;
    const secret = field?.value ?? "";
    if (apiKey.trim() === "" || secret === "") return;
    if (field) field.value = "";
    await run(() => signInWithApiKey(apiKey.trim(), secret));
  }

  // HTTP 429 is told once for the whole app, with when to retry (src/ui/shell/ApiNotice.tsx).
  const messages: Record<Exclude<LoginError, "rate-limited">, string> = {
    unreachable: t`The exchange could not be reached. Check your connection, then try again.`,
    credentials:
      method === "apiKey"
        ? t`The API key or secret is not right. Enter the secret again.`
        : t`The e-mail, username or password is not right.`,
    unverified: t`Confirm your e-mail address first: open the link in the mail we sent you.`,
    locked: t`This account is locked. Contact support to unlock it.`,
    server: t`The exchange had a problem answering. Try again in a moment.`,
    captcha: t`The exchange did not accept the check. A new one is running: sign in again once it has passed.`,
    "captcha-unavailable": t`The exchange asks for a check this app cannot show. Try again later.`,
    otp: t`That code is not right. Enter the current 6-digit code from your authenticator app.`,
    key: t`The security key did not sign in. Try again, and touch the key when it blinks.`,
    sms: t`That code is not right, or it has expired. Enter the code from the newest text message, or send a new one.`,
    "sms-wait": t`A code was sent a moment ago. Wait a minute before asking for another.`,
    expired: t`The sign-in took too long. Enter your password again.`,
    nonce: t`The exchange refused this key's nonce (the key was used elsewhere). Try again in a moment.`,
    address: t`This account accepts sign-ins only from the addresses on its list, and this address is not on it.`,
  };

  const loginMissing = touched && login.trim() === "";
  const passwordMissing = touched && password === "";
  const alert = error && error !== "rate-limited" && (
    <p className={css.alert} role="alert" data-testid="login-error">
      {messages[error]}
    </p>
  );

  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Sign in</Trans>
      </h1>
      {forced && (
        <p className={css.info} role="status" data-testid="forced-login">
          <Trans>Please sign in to continue to that page.</Trans>
        </p>
      )}
      <div className={s.tabs} role="tablist" aria-label={t`Sign-in method`}>
        <button
          type="button"
          role="tab"
          className={s.tab}
          aria-selected={method === "password"}
          data-testid="login-method-password"
          onClick={() => switchMethod("password")}
        >
          <Trans>Password</Trans>
        </button>
        <button
          type="button"
          role="tab"
          className={s.tab}
          aria-selected={method === "apiKey"}
          data-testid="login-method-api-key"
          onClick={() => switchMethod("apiKey")}
        >
          <Trans>API key</Trans>
        </button>
      </div>

      {method === "password" && step.kind === "two-factor" && (
        <form className={css.form} noValidate onSubmit={(e) => void submitPassword(e)} data-testid="two-factor-form">
          <p className={css.lead}>
            <Trans>Two-factor authentication is on for this account.</Trans>
          </p>
          {step.methods.includes("u2f") && (
            <div className={css.actions}>
              <button
                type="button"
                className={css.cta}
                disabled={busy}
                onClick={() => void run(() => verifyWithKey(step.tempToken))}
              >
                <Trans>Use your security key</Trans>
              </button>
            </div>
          )}
          {step.methods.includes("sms") && (
            <div className={css.actions}>
              {sms === null ? (
                <button
                  type="button"
                  className={step.methods.length > 1 ? s.linkButton : css.cta}
                  disabled={busy}
                  onClick={() => void textCode(step.tempToken)}
                >
                  <Trans>Text me a code</Trans>
                </button>
              ) : (
                <>
                  <p className={s.hint}>{t`We texted a code to ${textedTo}.`}</p>
                  <SmsResend at={sms.resendAt} busy={busy} onSend={() => void textCode(step.tempToken)} />
                </>
              )}
            </div>
          )}
          {(step.methods.includes("otp") || sms !== null) && (
            <label className={css.field}>
              <span>
                {sms === null ? (
                  <Trans>Code from your authenticator app</Trans>
                ) : (
                  <Trans>Code from the text message</Trans>
                )}
              </span>
              <input
                className={css.input}
                name="otp"
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={8}
                autoFocus
                value={otp}
                aria-invalid={touched && otp.trim() === ""}
                onChange={(e) => setOtp(e.target.value)}
              />
              {touched && otp.trim() === "" && (
                <span className={s.hint}>
                  <Trans>Enter the 6-digit code.</Trans>
                </span>
              )}
            </label>
          )}
          {alert}
          <div className={css.actions}>
            {(step.methods.includes("otp") || sms !== null) && (
              <button type="submit" className={css.cta} disabled={busy}>
                {busy ? t`Checking…` : t`Verify`}
              </button>
            )}
            <button
              type="button"
              className={s.linkButton}
              onClick={() => {
                setStep({ kind: "credentials" });
                setError(null);
              }}
            >
              <Trans>Start over</Trans>
            </button>
          </div>
        </form>
      )}

      {method === "password" && step.kind === "confirm-mail" && (
        <div className={css.form} data-testid="login-confirm-mail">
          <h2 className={css.h2}>
            <Trans>Check your e-mail to confirm this sign-in</Trans>
          </h2>
          <p className={css.lead} role="status">
            <Trans>
              Your account asks for a confirmation when it is signed in from a new address. We sent a link to your
              e-mail address: open it and confirm, then sign in again here. The link works for 30 minutes.
            </Trans>
          </p>
          <div className={css.actions}>
            <button
              type="button"
              className={css.cta}
              onClick={() => {
                setStep({ kind: "credentials" });
                setError(null);
              }}
            >
              <Trans>Sign in again</Trans>
            </button>
          </div>
        </div>
      )}

      {method === "password" && (step.kind === "credentials" || step.kind === "captcha") && (
        <form className={css.form} noValidate onSubmit={(e) => void submitPassword(e)} data-testid="login-form">
          <label className={css.field}>
            <span>
              <Trans>E-mail or username</Trans>
            </span>
            <input
              className={css.input}
              name="login"
              autoComplete="username"
              value={login}
              aria-invalid={loginMissing}
              onChange={(e) => setLogin(e.target.value)}
            />
            {loginMissing && (
              <span className={css.fieldError}>
                <Trans>Enter your e-mail or username.</Trans>
              </span>
            )}
          </label>
          <label className={css.field}>
            <span>
              <Trans>Password</Trans>
            </span>
            <input
              className={css.input}
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              aria-invalid={passwordMissing}
              onChange={(e) => setPassword(e.target.value)}
            />
            {passwordMissing && (
              <span className={css.fieldError}>
                <Trans>Enter your password.</Trans>
              </span>
            )}
          </label>
          {step.kind === "captcha" && (
            <div className={s.captcha} data-testid="captcha">
              <p className={s.hint}>
                <Trans>
                  After several attempts we check that you are a person: your browser solves a small puzzle, which takes
                  a moment.
                </Trans>
              </p>
            </div>
          )}
          {alert}
          <div className={css.actions}>
            <button type="submit" className={css.cta} disabled={busy}>
              {busy ? t`Signing in…` : t`Sign in`}
            </button>
            {/* A live region present from the start (one inserted with its text is not reliably
                read out): each state of the check is announced as it changes. */}
            <p className={s.captchaStatus} role="status" data-testid="captcha-status">
              {step.kind === "captcha" && check.state === "checking" && t`Checking that you are a person…`}
              {step.kind === "captcha" && check.state === "passed" && t`Check passed. You can sign in.`}
              {step.kind === "captcha" && check.state === "failed" && t`The check could not finish.`}
            </p>
            {step.kind === "captcha" && check.state === "failed" && (
              <button type="button" className={s.linkButton} disabled={busy} onClick={() => void run(newCaptcha)}>
                <Trans>Run the check again</Trans>
              </button>
            )}
          </div>
          <p className={s.hint}>
            <a href="/forgot-password">
              <Trans>Forgot your password?</Trans>
            </a>{" "}
            ·{" "}
            <Trans>
              New here? <a href="/signup">Create an account</a>
            </Trans>
          </p>
        </form>
      )}

      {method === "apiKey" && (
        <form className={css.form} noValidate onSubmit={(e) => void submitApiKey(e)} data-testid="api-key-form">
          <p className={s.hint}>
            <Trans>
              Sign in with an API key of your account. The secret is handed to the connection once and is not saved: the
              session lasts until you close or reload this tab.
            </Trans>
          </p>
          <label className={css.field}>
            <span>
              <Trans>API key</Trans>
            </span>
            <input
              className={css.input}
              name="apiKey"
              autoComplete="off"
              spellCheck={false}
              value={apiKey}
              aria-invalid={touched && apiKey.trim() === ""}
              onChange={(e) => setApiKey(e.target.value)}
            />
          </label>
          <label className={css.field}>
            <span>
              <Trans>API secret</Trans>
            </span>
            <input
              ref={secretRef}
              className={css.input}
              name="apiSecret"
              type="password"
              autoComplete="off"
              spellCheck={false}
              defaultValue=""
            />
          </label>
          {alert}
          <div className={css.actions}>
            <button type="submit" className={css.cta} disabled={busy}>
              {busy ? t`Signing in…` : t`Sign in with API key`}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
