import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { useLocation, useSearch } from "wouter";
import {
  APPLICANT_MIN_AGE,
  APPLICATION_REVIEW_DAYS,
  applicationProblems,
  regionalSubmittedPath,
  regionalVenue,
  type ApplicationField,
  type ApplicationReason,
  type RegionalApplication,
  type RegionalVenue,
} from "../protocol";
import { appScheduler } from "../ui/scheduler";
import {
  newCaptcha,
  openingHttp,
  passCaptcha,
  signupNeedsCaptcha,
  submitRegionalApplication,
  venueTerms,
  type ApplicationError,
  type VenueTerms,
} from "../ui/session";
import { NotFoundPage } from "./NotFoundPage";
import { SignupTermsDialog } from "./SignupTerms";
import * as css from "./pages.css";
import * as r from "./regional-signup.css";
import * as sc from "./session.css";
import * as s from "./signup.css";

type Values = Omit<RegionalApplication, "region" | "termsVersion" | "captchaToken" | "captchaProvider">;
const EMPTY: Values = {
  firstName: "",
  lastName: "",
  email: "",
  birthDate: "",
  nationalId: "",
  street: "",
  city: "",
  postalCode: "",
  resident: false,
};
type Check = "idle" | "checking" | "passed" | "failed";

/** The venue named by the path's second segment (`/signup/{id}[/submitted]`), or null. */
function useVenue(): RegionalVenue | null {
  const [path] = useLocation();
  return regionalVenue(path.split("/")[2]);
}

/** The country's name in the reader's language (the code when the browser cannot name it). */
function useCountryName(code: string): string {
  const { i18n } = useLingui();
  return useMemo(() => {
    try {
      return new Intl.DisplayNames([i18n.locale], { type: "region" }).of(code) ?? code;
    } catch {
      return code;
    }
  }, [code, i18n.locale]);
}

/** Where the applicant is in the venue's process, in words (aria-current), not by colour alone. */
function ApplicationSteps(props: { readonly current: 0 | 1 }) {
  const { t } = useLingui();
  const names = [t`Your application`, t`Our review`, t`Your account opens`];
  return (
    <ol className={s.steps} aria-label={t`How applying works`}>
      {names.map((name, i) => (
        <li key={name} className={s.stepItem} aria-current={i === props.current ? "step" : undefined}>
          {name}
        </li>
      ))}
    </ol>
  );
}

/** The words for a refused field. */
function useProblemText(
  venue: RegionalVenue,
  country: string,
): (f: ApplicationField, why: ApplicationReason) => string {
  const { t } = useLingui();
  const { idName, entity, postalExample } = venue;
  const minAge = APPLICANT_MIN_AGE;
  return (field, why) => {
    const missing = why === "missing";
    switch (field) {
      case "firstName":
        return missing ? t`Enter your first name.` : t`Use letters, spaces, hyphens or apostrophes, at most 64.`;
      case "lastName":
        return missing ? t`Enter your last name.` : t`Use letters, spaces, hyphens or apostrophes, at most 64.`;
      case "email":
        return missing ? t`Enter your e-mail address.` : t`Enter a valid e-mail address, like name@example.com.`;
      case "birthDate":
        if (why === "under-age") return t`You must be at least ${minAge} years old to apply.`;
        return missing ? t`Enter your date of birth.` : t`Enter a real date of birth.`;
      case "nationalId":
        return missing ? t`Enter your ${idName}.` : t`This is not a valid ${idName}: check the digits.`;
      case "street":
        return missing
          ? t`Enter your street and house number.`
          : t`Enter the street and number in 3 to 128 characters.`;
      case "city":
        return missing ? t`Enter your city.` : t`Enter the name of your city in letters.`;
      case "postalCode":
        return t`Enter your postal code, like ${postalExample}.`;
      case "resident":
        return t`Only residents of ${country} can apply to ${entity}.`;
      case "terms":
        return why === "outdated"
          ? t`The terms have changed since you opened them. Read them again and agree.`
          : t`Agree to the terms of ${entity} to apply.`;
      case "region":
      case "captcha":
        return t`The exchange did not accept this value. Check it and try again.`;
      default: {
        const never: never = field;
        return never;
      }
    }
  };
}

/**
 * Applying to a regional venue (`/signup/{tr|br}`, docs/product-rules.md#regional-sign-up): the
 * applicant's details, their residence in the venue's country, the venue's own terms; checked as
 * they type by the rules the exchange applies again, then sent for review. The submitted page says
 * what happens next.
 */
export function RegionalSignupPage() {
  const venue = useVenue();
  return venue ? <ApplicationForm venue={venue} /> : <NotFoundPage />;
}

function ApplicationForm({ venue }: { readonly venue: RegionalVenue }) {
  const { t, i18n } = useLingui();
  const http = openingHttp();
  const [, navigate] = useLocation();
  const country = useCountryName(venue.country);
  const problemText = useProblemText(venue, country);
  const [values, setValues] = useState<Values>(EMPTY);
  const [agreed, setAgreed] = useState(false);
  // null while loading; "failed" when the exchange did not give them (nothing can be agreed to then).
  const [terms, setTerms] = useState<VenueTerms | "failed" | null>(null);
  const [termsOpen, setTermsOpen] = useState(false);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [check, setCheck] = useState<Check>("idle");
  const [error, setError] = useState<ApplicationError | null>(null);

  useEffect(() => {
    let live = true;
    void venueTerms(http, venue.termsId).then((v) => {
      if (live) setTerms(v ?? "failed");
    });
    return () => {
      live = false;
    };
  }, [http, venue.termsId]);

  const loaded = terms !== null && terms !== "failed" ? terms : null;
  const application: Omit<RegionalApplication, "captchaToken" | "captchaProvider"> = {
    ...values,
    region: venue.id,
    termsVersion: agreed ? (loaded?.version ?? "") : "",
  };
  const problems = applicationProblems(application, appScheduler.now());
  const shown = (field: ApplicationField): string | null => {
    const mine = touched ? problems[field] : undefined;
    if (mine) return problemText(field, mine);
    return error?.kind === "field" && error.field === field ? problemText(field, error.reason) : null;
  };
  const set =
    <K extends keyof Values>(key: K) =>
    (value: Values[K]): void => {
      setValues((v) => ({ ...v, [key]: value }));
      if (error?.kind === "field" && error.field === key) setError(null);
    };

  const alert =
    error === null
      ? null
      : error.kind === "field"
        ? error.field === "captcha"
          ? t`The exchange did not accept the check. Send the form again to run a new one.`
          : t`Some details need your attention: see the messages above.`
        : {
            "rate-limited": t`Too many attempts. Wait a minute, then try again.`,
            server: t`The exchange had a problem answering. Try again in a moment.`,
            unreachable: t`The exchange could not be reached. Check your connection, then try again.`,
          }[error.kind];

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
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const captcha = await passCheck();
      if (captcha === "failed") return;
      const result = await submitRegionalApplication(http, {
        ...application,
        ...(captcha ? { captchaToken: captcha.token, captchaProvider: captcha.provider } : {}),
      });
      if (result.ok) navigate(regionalSubmittedPath(venue.id, result.reference));
      else {
        if (result.error.kind === "field" && result.error.field === "terms") setAgreed(false);
        setError(result.error);
      }
    } finally {
      setBusy(false);
    }
  }

  const { entity, idName, currency } = venue;
  const version = loaded?.version ?? "";
  const updated = loaded?.updated != null ? i18n.date(new Date(loaded.updated), { dateStyle: "long" }) : null;
  const today = new Date(appScheduler.now()).toISOString().slice(0, 10);

  const field = (
    name: Exclude<keyof Values, "resident">,
    label: ReactNode,
    input: {
      readonly type?: string;
      readonly autoComplete?: string;
      readonly inputMode?: "numeric";
      readonly max?: string;
    },
    wide = false,
  ) => (
    <label className={wide ? `${css.field} ${r.wide}` : css.field}>
      <span>{label}</span>
      <input
        className={css.input}
        name={name}
        type={input.type ?? "text"}
        autoComplete={input.autoComplete}
        inputMode={input.inputMode}
        max={input.max}
        value={values[name]}
        aria-invalid={shown(name) !== null}
        onChange={(e) => set(name)(e.target.value)}
      />
      {shown(name) && <span className={css.fieldError}>{shown(name)}</span>}
    </label>
  );

  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Open an account with {entity}</Trans>
      </h1>
      <ApplicationSteps current={0} />
      <p className={css.lead}>
        <Trans>
          {entity} serves residents of {country}, under local law and in {currency}. Opening an account there is an
          application: tell us who you are and where you live, and our local team reviews it before the account opens.
        </Trans>
      </p>
      <form className={r.form} noValidate onSubmit={(e) => void submit(e)} data-testid="regional-form">
        <fieldset className={r.fieldset}>
          <legend className={r.legend}>
            <Trans>About you</Trans>
          </legend>
          {field("firstName", <Trans>First name</Trans>, { autoComplete: "given-name" })}
          {field("lastName", <Trans>Last name</Trans>, { autoComplete: "family-name" })}
          {field("birthDate", <Trans>Date of birth</Trans>, { type: "date", autoComplete: "bday", max: today })}
          {field("nationalId", <Trans>National ID number ({idName})</Trans>, { inputMode: "numeric" })}
          {field("email", <Trans>E-mail address</Trans>, { type: "email", autoComplete: "email" }, true)}
        </fieldset>
        <fieldset className={r.fieldset}>
          <legend className={r.legend}>
            <Trans>Where you live</Trans>
          </legend>
          {field("street", <Trans>Street and number</Trans>, { autoComplete: "street-address" }, true)}
          {field("city", <Trans>City</Trans>, { autoComplete: "address-level2" })}
          {field("postalCode", <Trans>Postal code</Trans>, { autoComplete: "postal-code" })}
          <label className={`${css.field} ${r.wide}`}>
            <span>
              <Trans>Country of residence</Trans>
            </span>
            <input className={`${css.input} ${r.fixed}`} name="country" value={country} readOnly />
          </label>
          <div className={`${css.field} ${r.wide}`}>
            <label className={s.check}>
              <input
                type="checkbox"
                name="resident"
                checked={values.resident}
                aria-invalid={shown("resident") !== null}
                onChange={(e) => set("resident")(e.target.checked)}
              />
              <span>
                <Trans>I live in {country}, and this is my permanent address</Trans>
              </span>
            </label>
            {shown("resident") && <span className={css.fieldError}>{shown("resident")}</span>}
          </div>
        </fieldset>
        <div className={css.field}>
          <label className={s.check}>
            <input
              type="checkbox"
              name="terms"
              checked={agreed}
              aria-invalid={shown("terms") !== null}
              onChange={(e) => {
                setAgreed(e.target.checked);
                if (error?.kind === "field" && error.field === "terms") setError(null);
              }}
            />
            <span>
              <Trans>I have read and agree to the terms of {entity}</Trans>
            </span>
          </label>
          <button type="button" className={sc.linkButton} onClick={() => setTermsOpen(true)}>
            <Trans>Read the terms</Trans>
          </button>
          {shown("terms") && <span className={css.fieldError}>{shown("terms")}</span>}
        </div>
        {alert && (
          <p className={css.alert} role="alert" data-testid="regional-error">
            {alert}
          </p>
        )}
        {terms === "failed" && (
          <p className={css.alert} role="alert">
            <Trans>
              The terms of {entity} could not be loaded, so the application cannot be sent. Reload the page to try
              again.
            </Trans>
          </p>
        )}
        <div className={css.actions}>
          <button type="submit" className={css.cta} disabled={busy || loaded === null}>
            {busy ? t`Sending your application…` : t`Send application`}
          </button>
          <p className={sc.captchaStatus} role="status">
            {check === "checking" && t`Checking that you are a person…`}
            {check === "passed" && busy && t`Check passed.`}
            {check === "failed" && t`The check could not finish. Send the form again to retry.`}
          </p>
        </div>
        <p className={sc.hint}>
          <Trans>
            Not living in {country}? <a href="/signup">Open a standard account</a>
          </Trans>
        </p>
      </form>

      <SignupTermsDialog
        open={termsOpen}
        title={t`Terms of ${entity}`}
        testId="regional-terms"
        version={version}
        updated={updated}
        onClose={() => setTermsOpen(false)}
        onAgree={() => {
          setAgreed(true);
          if (error?.kind === "field" && error.field === "terms") setError(null);
          setTermsOpen(false);
        }}
      >
        <li>
          <Trans>
            Your account is held by {entity} and governed by the law of {country}.
          </Trans>
        </li>
        <li>
          <Trans>
            You live in {country} and apply for yourself; the details you give are true, and you keep them up to date.
          </Trans>
        </li>
        <li>
          <Trans>
            Before the account opens we check your identity with your {idName} and may ask for documents, which we keep
            as long as the law requires.
          </Trans>
        </li>
        <li>
          <Trans>Deposits and withdrawals in {currency} go only to and from bank accounts in your own name.</Trans>
        </li>
        <li>
          <Trans>
            Trading digital assets carries risk: prices move fast and you can lose what you put in. Nothing here is
            investment advice.
          </Trans>
        </li>
      </SignupTermsDialog>
    </section>
  );
}

/**
 * `/signup/{tr|br}/submitted?ref=…`: the application's reference and what happens next. Opened
 * without a reference (a bookmark), it still says what the review is.
 */
export function RegionalSubmittedPage() {
  const venue = useVenue();
  return venue ? <Submitted venue={venue} /> : <NotFoundPage />;
}

function Submitted({ venue }: { readonly venue: RegionalVenue }) {
  const country = useCountryName(venue.country);
  const reference = new URLSearchParams(useSearch()).get("ref") ?? "";
  const { entity, idName } = venue;
  const days = APPLICATION_REVIEW_DAYS;
  return (
    <section className={css.hero} data-testid="regional-submitted">
      <h1 className={css.h1}>
        <Trans>Application received</Trans>
      </h1>
      <ApplicationSteps current={1} />
      <p className={css.lead}>
        {reference !== "" ? (
          <Trans>
            Thank you. Your application to {entity} has the reference{" "}
            <strong className={r.reference}>{reference}</strong>. We sent a receipt to your e-mail address: quote the
            reference if you write to us.
          </Trans>
        ) : (
          <Trans>Thank you. We sent a receipt to the e-mail address you applied with.</Trans>
        )}
      </p>
      <h2 className={css.h2}>
        <Trans>What happens next</Trans>
      </h2>
      <ol className={r.next}>
        <li>
          <Trans>
            Our team in {country} checks your details and your {idName}, usually within {days} business days.
          </Trans>
        </li>
        <li>
          <Trans>
            We may ask by e-mail for a photo of your ID or a proof of address. Answer from the address you applied with.
          </Trans>
        </li>
        <li>
          <Trans>Once your account is approved, we e-mail you a link to choose your password and sign in.</Trans>
        </li>
      </ol>
      <p className={`${sc.hint} ${r.after}`}>
        <Trans>No receipt? Look in your spam folder. There is no need to apply again: your application is kept.</Trans>
      </p>
      <div className={css.actions}>
        <a className={css.cta} href="/">
          <Trans>Back to the home page</Trans>
        </a>
      </div>
    </section>
  );
}
