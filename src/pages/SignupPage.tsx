import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import {
  EMAIL_RESEND_COOLDOWN_MS,
  emailValid,
  PROHIBITED_COUNTRIES,
  regionalSignupPath,
  SIGNUP_STEPS,
  UK_WARNING_COUNTRIES,
  usernameValid,
  venueForCountry,
  type SignupStep,
} from "../protocol";
import { Modal } from "../ui/desk/Modal";
import { appScheduler } from "../ui/scheduler";
import {
  newCaptcha,
  openingHttp,
  passCaptcha,
  resendConfirmation,
  signupContext,
  signupNeedsCaptcha,
  submitSignup,
  type OpeningError,
  type SignupContext,
} from "../ui/session";
import * as css from "./pages.css";
import * as sc from "./session.css";
import * as s from "./signup.css";
import { SignupPasswordRules, usePasswordProblemText } from "./SignupPasswordRules";
import { SignupTermsDialog } from "./SignupTerms";

type Dialog = "prohibited-question" | "prohibited-warning" | "uk-warning" | "terms" | null;
type Check = "idle" | "checking" | "passed" | "failed";

/**
 * Opening an account (docs/product-rules.md#sign-up-and-password-reset): PROHIBITED when the
 * visitor's region or answer rules them out, FORM (with the eligibility question, the UK risk
 * warning, the terms and the captcha when due), SECURITY (two-factor advice), VERIFY_EMAIL (resend
 * with a cooldown). COMPLETE is the confirmation link's page (ConfirmSignupPage).
 */
export function SignupPage() {
  const { t, i18n } = useLingui();
  const http = openingHttp();
  const [ctx, setCtx] = useState<SignupContext | null>(null);
  const [step, setStep] = useState<SignupStep>("FORM");
  const [dialog, setDialog] = useState<Dialog>(null);
  const [email, setEmail] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [country, setCountry] = useState("");
  const [eligible, setEligible] = useState(false);
  const [ukAcknowledged, setUkAcknowledged] = useState(false);
  const [terms, setTerms] = useState(false);
  const [newsletter, setNewsletter] = useState(false);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [check, setCheck] = useState<Check>("idle");
  const [error, setError] = useState<OpeningError | null>(null);

  useEffect(() => {
    let live = true;
    void signupContext(http).then((c) => {
      if (!live) return;
      setCtx(c);
      const here = c.country !== null && c.countries.some((x) => x.code === c.country) ? c.country : "";
      setCountry(here);
      if (c.country !== null && PROHIBITED_COUNTRIES.has(c.country)) setStep("PROHIBITED");
      else setDialog("prohibited-question");
    });
    return () => {
      live = false;
    };
  }, [http]);

  const regionNames = useMemo(() => {
    try {
      return new Intl.DisplayNames([i18n.locale], { type: "region" });
    } catch {
      return null;
    }
  }, [i18n.locale]);
  const countryName = (code: string, fallback: string): string => regionNames?.of(code) ?? fallback;
  const countries = useMemo(
    () =>
      (ctx?.countries ?? [])
        .map((c) => ({ code: c.code, name: regionNames?.of(c.code) ?? c.name }))
        .sort((a, b) => a.name.localeCompare(b.name, i18n.locale)),
    [ctx, regionNames, i18n.locale],
  );

  const passwordText = usePasswordProblemText();
  const emailProblem =
    email.trim() === ""
      ? t`Enter your e-mail address.`
      : emailValid(email.trim())
        ? null
        : t`Enter a valid e-mail address, like name@example.com.`;
  const usernameProblem = usernameValid(username.trim())
    ? null
    : t`Use 3 to 32 letters, digits or underscores, with no spaces.`;
  const passwordProblem = passwordText(password, { username: username.trim(), email: email.trim() });
  const countryProblem =
    country === ""
      ? t`Choose the country you live in.`
      : PROHIBITED_COUNTRIES.has(country)
        ? t`We cannot open accounts for residents of this country.`
        : null;
  const termsProblem = terms ? null : t`Agree to the terms to open an account.`;
  const venue = venueForCountry(country);
  const venueEntity = venue?.entity ?? "";
  const venueCountry = venue ? countryName(venue.country, venue.country) : "";
  const fieldError = (field: string): string | null => {
    if (error?.kind === "taken" && error.field === field)
      return field === "email"
        ? t`An account with this e-mail address exists. Sign in, or reset its password.`
        : t`This username is taken. Choose another.`;
    if (error?.kind === "field" && error.field === field) {
      if (field === "terms") return t`The terms have changed since you opened them. Read them again and agree.`;
      if (field === "country" && error.reason === "prohibited")
        return t`We cannot open accounts for residents of this country.`;
      return t`The exchange did not accept this value. Check it and try again.`;
    }
    return null;
  };
  const shown = (problem: string | null, field: string): string | null =>
    (touched ? problem : null) ?? fieldError(field);

  const messages: Record<Exclude<OpeningError["kind"], "field" | "taken" | "invalid-token">, string> = {
    "rate-limited": t`Too many attempts. Wait a minute, then try again.`,
    server: t`The exchange had a problem answering. Try again in a moment.`,
    unreachable: t`The exchange could not be reached. Check your connection, then try again.`,
  };
  const alert =
    error === null
      ? null
      : error.kind === "field" && error.field === "captcha"
        ? t`The exchange did not accept the check. Send the form again to run a new one.`
        : error.kind === "field" && error.field === "prohibited"
          ? t`Answer the eligibility question to go on.`
          : error.kind === "field" || error.kind === "taken" || error.kind === "invalid-token"
            ? t`Some details need your attention: see the messages above.`
            : messages[error.kind];

  async function passCheck(): Promise<{ token: string; provider: string } | null | "failed"> {
    if (!(await signupNeedsCaptcha(http))) return null;
    setCheck("checking");
    const step = await newCaptcha();
    const solution = step.kind === "captcha" ? await passCaptcha(step.challenge) : null;
    setCheck(solution ? "passed" : "failed");
    return solution ?? "failed";
  }

  async function submit(e: FormEvent): Promise<void> {
    e.preventDefault();
    setTouched(true);
    setError(null);
    if (emailProblem || usernameProblem || passwordProblem || countryProblem || termsProblem) return;
    if (!eligible) {
      setDialog("prohibited-question");
      return;
    }
    if (UK_WARNING_COUNTRIES.has(country) && !ukAcknowledged) {
      setDialog("uk-warning");
      return;
    }
    setBusy(true);
    try {
      const captcha = await passCheck();
      if (captcha === "failed") return;
      const result = await submitSignup(http, {
        email: email.trim(),
        username: username.trim(),
        password,
        country,
        tosVersion: ctx?.termsVersion ?? "",
        prohibitedPerson: false,
        newsletter,
        ...(captcha ? { captchaToken: captcha.token, captchaProvider: captcha.provider } : {}),
      });
      if (result.ok) {
        setPassword("");
        setStep("SECURITY");
      } else {
        if (result.error.kind === "field" && result.error.field === "terms") setTerms(false);
        setError(result.error);
      }
    } finally {
      setBusy(false);
    }
  }

  /**
   * A dialog's own close (Escape, or the browser closing it as the next one opens) moves on only
   * from that dialog: closing the one a button just replaced must not undo the replacement.
   */
  const closed = (which: Exclude<Dialog, null>, next: Dialog): void =>
    setDialog((current) => (current === which ? next : current));

  const stepNames: Record<SignupStep, string> = {
    PROHIBITED: t`Eligibility`,
    FORM: t`Your details`,
    SECURITY: t`Security`,
    VERIFY_EMAIL: t`Confirm e-mail`,
    COMPLETE: t`Done`,
  };
  const detected = ctx?.country != null ? countryName(ctx.country, ctx.country) : "";
  const updated = ctx?.termsUpdated != null ? i18n.date(new Date(ctx.termsUpdated), { dateStyle: "long" }) : null;
  const version = ctx?.termsVersion ?? "";

  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Create your account</Trans>
      </h1>
      <ol className={s.steps} aria-label={t`Sign-up steps`}>
        {SIGNUP_STEPS.filter((x) => x !== "PROHIBITED" || step === "PROHIBITED").map((x) => (
          <li key={x} className={s.stepItem} aria-current={x === step ? "step" : undefined}>
            {stepNames[x]}
          </li>
        ))}
      </ol>

      {step === "PROHIBITED" && (
        <div data-testid="signup-prohibited">
          <h2 className={css.h2}>
            <Trans>We cannot open an account for you</Trans>
          </h2>
          <p className={css.lead}>
            <Trans>
              Our services are not available to US persons or to residents of Cuba, Iran, North Korea or Syria. If you
              think this is a mistake, for example because you are travelling, contact support from the country you live
              in.
            </Trans>
          </p>
          <a className={css.cta} href="/">
            <Trans>Back to the home page</Trans>
          </a>
        </div>
      )}

      {step === "FORM" && (
        <form className={css.form} noValidate onSubmit={(e) => void submit(e)} data-testid="signup-form">
          <p className={sc.hint}>
            <Trans>
              Already have an account? <a href="/login">Sign in</a>
            </Trans>
          </p>
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
              aria-invalid={shown(emailProblem, "email") !== null}
              onChange={(e) => {
                setEmail(e.target.value);
                if (error?.kind === "taken") setError(null);
              }}
            />
            {shown(emailProblem, "email") && <span className={css.fieldError}>{shown(emailProblem, "email")}</span>}
          </label>
          <label className={css.field}>
            <span>
              <Trans>Username</Trans>
            </span>
            <input
              className={css.input}
              name="username"
              autoComplete="username"
              spellCheck={false}
              value={username}
              aria-invalid={shown(usernameProblem, "username") !== null}
              onChange={(e) => {
                setUsername(e.target.value);
                if (error?.kind === "taken") setError(null);
              }}
            />
            {shown(usernameProblem, "username") && (
              <span className={css.fieldError}>{shown(usernameProblem, "username")}</span>
            )}
          </label>
          <label className={css.field}>
            <span>
              <Trans>Password</Trans>
            </span>
            <input
              className={css.input}
              name="new-password"
              type="password"
              autoComplete="new-password"
              value={password}
              aria-invalid={shown(passwordProblem, "password") !== null}
              aria-describedby="signup-password-rules"
              onChange={(e) => setPassword(e.target.value)}
            />
            {shown(passwordProblem, "password") && (
              <span className={css.fieldError}>{shown(passwordProblem, "password")}</span>
            )}
          </label>
          <SignupPasswordRules
            id="signup-password-rules"
            password={password}
            username={username.trim()}
            email={email.trim()}
          />
          <label className={css.field}>
            <span>
              <Trans>Country of residence</Trans>
            </span>
            <select
              className={s.select}
              name="country"
              value={country}
              aria-invalid={shown(countryProblem, "country") !== null}
              onChange={(e) => {
                setCountry(e.target.value);
                setUkAcknowledged(false);
              }}
            >
              <option value="">{t`Choose a country`}</option>
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
            {shown(countryProblem, "country") && (
              <span className={css.fieldError}>{shown(countryProblem, "country")}</span>
            )}
          </label>
          {venue && (
            // The region's own venue takes its residents' applications (docs/product-rules.md#regional-sign-up).
            <p className={sc.hint} data-testid="regional-venue">
              <Trans>
                Residents of {venueCountry} open their accounts with {venueEntity}, our local venue.{" "}
                <a href={regionalSignupPath(venue.id)}>Apply to {venueEntity}</a>
              </Trans>
            </p>
          )}
          <div className={css.field}>
            <label className={s.check}>
              <input
                type="checkbox"
                name="terms"
                checked={terms}
                aria-invalid={shown(termsProblem, "terms") !== null}
                onChange={(e) => setTerms(e.target.checked)}
              />
              <span>
                <Trans>I have read and agree to the terms of service</Trans>
              </span>
            </label>
            <button type="button" className={sc.linkButton} onClick={() => setDialog("terms")}>
              <Trans>Read the terms</Trans>
            </button>
            {shown(termsProblem, "terms") && <span className={css.fieldError}>{shown(termsProblem, "terms")}</span>}
          </div>
          <label className={s.check}>
            <input
              type="checkbox"
              name="newsletter"
              checked={newsletter}
              onChange={(e) => setNewsletter(e.target.checked)}
            />
            <span>
              <Trans>Send me the newsletter: product news and market updates, about twice a month</Trans>
            </span>
          </label>
          {alert && (
            <p className={css.alert} role="alert" data-testid="signup-error">
              {alert}
            </p>
          )}
          <div className={css.actions}>
            <button type="submit" className={css.cta} disabled={busy || ctx === null}>
              {busy ? t`Creating your account…` : t`Create account`}
            </button>
            <p className={sc.captchaStatus} role="status" data-testid="captcha-status">
              {check === "checking" && t`Checking that you are a person…`}
              {check === "passed" && busy && t`Check passed.`}
              {check === "failed" && t`The check could not finish. Send the form again to retry.`}
            </p>
          </div>
        </form>
      )}

      {step === "SECURITY" && (
        <div data-testid="signup-security">
          <h2 className={css.h2}>
            <Trans>Protect your account</Trans>
          </h2>
          <p className={css.lead}>
            <Trans>
              Your account is created. Turn on two-factor authentication as soon as you can: with it, a stolen password
              alone cannot open your account. Once your e-mail is confirmed, sign in and set it up on the security page
              with an authenticator app or a hardware key.
            </Trans>
          </p>
          <div className={css.actions}>
            <a className={css.ctaGhost} href="/security">
              <Trans>Set up two-factor authentication</Trans>
            </a>
            <button type="button" className={css.cta} onClick={() => setStep("VERIFY_EMAIL")}>
              <Trans>Continue</Trans>
            </button>
          </div>
        </div>
      )}

      {step === "VERIFY_EMAIL" && <VerifyEmail email={email.trim()} />}

      <Modal
        open={dialog === "prohibited-question"}
        title={t`Before you start`}
        onClose={() => closed("prohibited-question", null)}
        testId="prohibited-question"
      >
        <div className={s.dialogBody}>
          <p>
            <Trans>
              Are you a US person, or do you live in Cuba, Iran, North Korea or Syria? By law we cannot open accounts
              for them.
            </Trans>
          </p>
          <div className={s.dialogActions}>
            <button type="button" className={s.button} onClick={() => setDialog("prohibited-warning")}>
              <Trans>Yes, I am</Trans>
            </button>
            <button
              type="button"
              className={css.cta}
              onClick={() => {
                setEligible(true);
                if (error?.kind === "field" && error.field === "prohibited") setError(null);
                setDialog(UK_WARNING_COUNTRIES.has(country) && !ukAcknowledged ? "uk-warning" : null);
              }}
            >
              <Trans>No, I am not</Trans>
            </button>
          </div>
        </div>
      </Modal>

      <Modal
        open={dialog === "prohibited-warning"}
        title={t`We cannot serve you`}
        onClose={() => closed("prohibited-warning", "prohibited-question")}
        testId="prohibited-warning"
      >
        <div className={s.dialogBody}>
          <p>
            <Trans>
              Accounts are not available to US persons or to residents of the countries we named. Going on would break
              our terms, and the account would be closed.
            </Trans>
          </p>
          <div className={s.dialogActions}>
            <button type="button" className={s.button} onClick={() => setDialog("prohibited-question")}>
              <Trans>I answered by mistake</Trans>
            </button>
            <button
              type="button"
              className={css.cta}
              onClick={() => {
                setDialog(null);
                setStep("PROHIBITED");
              }}
            >
              <Trans>Leave sign-up</Trans>
            </button>
          </div>
        </div>
      </Modal>

      <Modal
        open={dialog === "uk-warning"}
        title={t`Risk warning for UK residents`}
        onClose={() => closed("uk-warning", null)}
        testId="uk-warning"
      >
        <div className={s.dialogBody}>
          <p>
            <Trans>
              Don’t invest unless you’re prepared to lose all the money you invest. This is a high-risk investment and
              you should not expect to be protected if something goes wrong.
            </Trans>
          </p>
          <p className={sc.hint}>
            <Trans>
              Crypto-assets are not covered by the Financial Services Compensation Scheme. Prices can move sharply, and
              you may not be able to sell when you want to.
            </Trans>
          </p>
          <div className={s.dialogActions}>
            <a className={s.button} href="/">
              <Trans>Not now</Trans>
            </a>
            <button
              type="button"
              className={css.cta}
              onClick={() => {
                setUkAcknowledged(true);
                setDialog(null);
              }}
            >
              <Trans>I understand the risk</Trans>
            </button>
          </div>
        </div>
      </Modal>

      <SignupTermsDialog
        open={dialog === "terms"}
        title={t`Terms of service`}
        testId="terms"
        version={version}
        updated={updated}
        onClose={() => closed("terms", null)}
        onAgree={() => {
          setTerms(true);
          if (error?.kind === "field" && error.field === "terms") setError(null);
          setDialog(null);
        }}
      >
        <li>
          <Trans>You are at least 18 years old and open the account for yourself, not for someone else.</Trans>
        </li>
        <li>
          <Trans>The details you give are true, and you keep them up to date.</Trans>
        </li>
        <li>
          <Trans>You keep your password and second factor secret; what is done with them is done by you.</Trans>
        </li>
        <li>
          <Trans>
            Trading digital assets carries risk: prices move fast and you can lose what you put in. Nothing here is
            investment advice.
          </Trans>
        </li>
        <li>
          <Trans>
            We may ask you to verify your identity, and may limit or close an account that breaks these terms or the
            law.
          </Trans>
        </li>
        <li>
          <Trans>Fees are those on the fees page when an order is placed.</Trans>
        </li>
      </SignupTermsDialog>
      {ctx !== null && ctx.country !== null && step === "FORM" && (
        <p className={sc.hint}>
          <Trans>Your connection appears to come from {detected}.</Trans>
        </p>
      )}
    </section>
  );
}

/** VERIFY_EMAIL: where the link went, and a resend that waits EMAIL_RESEND_COOLDOWN_MS between sends. */
function VerifyEmail(props: { readonly email: string }) {
  const { t } = useLingui();
  const http = openingHttp();
  const [sentAt, setSentAt] = useState(() => appScheduler.now());
  const [nowMs, setNowMs] = useState(() => appScheduler.now());
  const [status, setStatus] = useState<"idle" | "sending" | "sent" | "failed">("idle");
  useEffect(() => appScheduler.every(1000, () => setNowMs(appScheduler.now())), []);
  const wait = Math.max(0, Math.ceil((sentAt + EMAIL_RESEND_COOLDOWN_MS - nowMs) / 1000));
  const { email } = props;

  async function resend(): Promise<void> {
    setStatus("sending");
    const r = await resendConfirmation(http, email);
    setStatus(r.ok ? "sent" : "failed");
    if (r.ok) {
      setSentAt(appScheduler.now());
      setNowMs(appScheduler.now());
    }
  }

  return (
    <div data-testid="signup-verify-email">
      <h2 className={css.h2}>
        <Trans>Confirm your e-mail address</Trans>
      </h2>
      <p className={css.lead}>
        <Trans>
          We sent a link to <strong>{email}</strong>. Open it to confirm the address; then you can sign in. The link
          works for 24 hours.
        </Trans>
      </p>
      <p className={sc.hint}>
        <Trans>No mail? Look in your spam folder, or ask for it again.</Trans>
      </p>
      <div className={css.actions}>
        <button
          type="button"
          className={s.button}
          disabled={wait > 0 || status === "sending"}
          onClick={() => void resend()}
        >
          <Trans>Send the link again</Trans>
        </button>
        <p className={sc.captchaStatus} role="status" data-testid="resend-status">
          {wait > 0 && t`You can ask again in ${wait} s.`} {status === "sent" && t`We sent the link again.`}
          {status === "failed" && t`The mail could not be sent. Try again in a moment.`}
        </p>
      </div>
    </div>
  );
}
