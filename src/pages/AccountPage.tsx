import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import {
  JAPAN_BLOCK_FROM,
  kycProblems,
  marginLevelNeeded,
  MARGIN_BASIC_PLUS_FROM,
  MARGIN_INTERMEDIATE_FROM,
  SPAIN_DERIVATIVES_BLOCK_FROM,
  VERIFICATION_LEVELS,
  type KycData,
  type KycField,
  type KycKind,
  type KycProblem,
  type KycProblems,
  type VerificationLevel,
} from "../protocol";
import {
  answerUsResident,
  freezeOwnAccount,
  loadAccount,
  submitKyc,
  type AccountError,
  type AccountView,
} from "../ui/account/account-api";
import { LEVEL_NAMES } from "../ui/account/level-gate";
import { Modal } from "../ui/api-keys";
import { intlTag } from "../ui/i18n";
import { settings } from "../ui/settings/store";
import { useApiErrorText } from "../ui/shell/api-error-text";
import * as shell from "../ui/shell/shell.css";
import * as css from "./pages.css";
import * as card from "./security.css";

const EMPTY: KycData = {
  first_name: "",
  last_name: "",
  full_corporate_name: "",
  high_net_worth: false,
  resid_appt_nb: "",
  resid_office_floor: "",
  resid_building_name: "",
  resid_street: "",
  resid_district: "",
  resid_city: "",
  resid_state: "",
  resid_country: "",
  resid_zipcode: "",
};

/** What each level unlocks (docs/product-rules.md#compliance-gates). */
const UNLOCKS: Record<VerificationLevel, MessageDescriptor> = {
  0: msg`Spot trading, paper trading and funding offers.`,
  1: msg`Deposits, and margin trading for accounts opened from 1 January 2022.`,
  2: msg`Withdrawals, and margin trading for accounts opened from 2 March 2022.`,
  3: msg`The highest limits, and corporate and OTC services.`,
};

const FIELD_LABELS: Record<Exclude<KycField, "high_net_worth">, MessageDescriptor> = {
  first_name: msg`First name`,
  last_name: msg`Last name`,
  full_corporate_name: msg`Registered company name`,
  resid_appt_nb: msg`Apartment or unit`,
  resid_office_floor: msg`Floor`,
  resid_building_name: msg`Building`,
  resid_street: msg`Street and number`,
  resid_district: msg`District`,
  resid_city: msg`City`,
  resid_state: msg`State or province`,
  resid_country: msg`Country (two-letter code, e.g. GB)`,
  resid_zipcode: msg`Postcode`,
};

const PROBLEMS: Record<KycProblem, MessageDescriptor> = {
  required: msg`Required.`,
  "too-long": msg`At most 100 characters.`,
  country: msg`Enter the two-letter country code, such as GB or DE.`,
  zipcode: msg`Enter the postcode as written on your letters (2 to 12 letters, digits, spaces or dashes).`,
  level: msg`Choose a level above the one you have.`,
  kind: msg`Choose individual or company.`,
  "us-resident": msg`Not available to US residents.`,
};

/** The form's address fields, in the order a person writes an address. */
const ADDRESS: readonly Exclude<KycField, "high_net_worth" | "first_name" | "last_name" | "full_corporate_name">[] = [
  "resid_street",
  "resid_appt_nb",
  "resid_office_floor",
  "resid_building_name",
  "resid_district",
  "resid_city",
  "resid_state",
  "resid_zipcode",
  "resid_country",
];
const OPTIONAL: ReadonlySet<KycField> = new Set([
  "resid_appt_nb",
  "resid_office_floor",
  "resid_building_name",
  "resid_district",
  "resid_state",
]);

function useErrorText(): (e: AccountError) => string | null {
  const { t, i18n } = useLingui();
  const appText = useApiErrorText();
  return (e) => {
    switch (e.kind) {
      case "field":
        return i18n._(PROBLEMS[e.problem] ?? PROBLEMS.required);
      case "us-resident":
        return t`Verification is not available to US residents.`;
      case "answer-us-first":
        return t`Answer the US-person question first.`;
      case "already-pending":
        return t`A request is already under review. You will get an e-mail when it is decided.`;
      case "invalid-code":
        return t`This freeze link is not valid.`;
      case "app":
        return appText(e.app);
      default: {
        const never: never = e;
        return never;
      }
    }
  };
}

/** /account: who the account is, its verification and what it unlocks, the rules that apply, freezing. */
export function AccountPage() {
  const { t } = useLingui();
  const [view, setView] = useState<AccountView | null>(null);
  const [loadError, setLoadError] = useState<AccountError | null>(null);
  const errorText = useErrorText();
  const reload = async (): Promise<void> => {
    const r = await loadAccount();
    if (r.ok) {
      setView(r.value);
      setLoadError(null);
    } else setLoadError(r.error);
  };
  useEffect(() => {
    let live = true;
    void loadAccount().then((r) => {
      if (!live) return;
      if (r.ok) setView(r.value);
      else setLoadError(r.error);
    });
    return () => {
      live = false;
    };
  }, []);

  if (!view) {
    const text = loadError ? errorText(loadError) : null;
    return (
      <section className={card.page}>
        <h1 className={css.h1}>{t`Your account`}</h1>
        {loadError ? (
          <div className={css.alert} role="alert">
            <p>{text ?? t`Your account could not be loaded.`}</p>
            <button type="button" className={shell.ghostButton} onClick={() => void reload()}>
              {t`Try again`}
            </button>
          </div>
        ) : (
          <p className={css.muted} role="status">
            {t`Loading your account…`}
          </p>
        )}
      </section>
    );
  }
  return (
    <section className={card.page}>
      <h1 className={css.h1}>{t`Your account`}</h1>
      <Profile view={view} />
      <Verification view={view} onChange={reload} />
      <Rules view={view} />
      <Freeze />
    </section>
  );
}

function Card({
  title,
  id,
  children,
}: {
  readonly title: ReactNode;
  readonly id?: string;
  readonly children: ReactNode;
}) {
  return (
    <section className={card.card} id={id} aria-labelledby={id ? `${id}-title` : undefined}>
      <h2 className={card.h3} id={id ? `${id}-title` : undefined}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function Profile({ view }: { readonly view: AccountView }) {
  const { t, i18n } = useLingui();
  const s = useSnapshot(settings);
  const u = view.user;
  const date = (mts: number | null) =>
    mts === null ? "—" : new Intl.DateTimeFormat(intlTag(s.locale), { dateStyle: "long" }).format(mts);
  const level = i18n._(LEVEL_NAMES[(u.verificationLevel ?? 0) as VerificationLevel] ?? LEVEL_NAMES[0]);
  const tfa = u.tfaTypes.length > 0;
  const type = u.complianceAccountType === "corporate" ? t`Company` : t`Individual`;
  const rows: [string, ReactNode][] = [
    [t`Username`, u.username],
    [
      t`E-mail`,
      <>
        {u.email}{" "}
        <span className={u.isEmailVerified ? card.badgeOn : card.badgeOff}>
          {u.isEmailVerified ? t`confirmed` : t`not confirmed`}
        </span>
      </>,
    ],
    [t`Account opened`, date(u.mtsAccountCreate)],
    [t`Account type`, type],
    [t`Verification level`, level],
    [
      t`Two-factor sign-in`,
      <>
        <span className={tfa ? card.badgeOn : card.badgeOff}>{tfa ? t`on` : t`off`}</span>{" "}
        <a href="/security">{tfa ? t`Manage` : t`Turn on`}</a>
      </>,
    ],
  ];
  return (
    <Card title={t`Profile`}>
      <dl className={card.list} data-testid="account-profile">
        {rows.map(([k, v]) => (
          <div key={k} className={card.itemHead}>
            <dt className={css.muted}>{k}</dt>
            <dd style={{ margin: 0 }}>{v}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function Verification({ view, onChange }: { readonly view: AccountView; readonly onChange: () => Promise<void> }) {
  const { t, i18n } = useLingui();
  const s = useSnapshot(settings);
  const current = (view.user.verificationLevel ?? 0) as VerificationLevel;
  const kyc = view.kyc;
  const date = (mts: number | null) =>
    mts === null ? "—" : new Intl.DateTimeFormat(intlTag(s.locale), { dateStyle: "medium" }).format(mts);
  const levels = Object.values(VERIFICATION_LEVELS) as VerificationLevel[];
  const requested = kyc.level === null ? "" : i18n._(LEVEL_NAMES[kyc.level as VerificationLevel] ?? LEVEL_NAMES[0]);
  const submitted = date(kyc.submittedAt);
  const reason = kyc.reason ?? "";
  return (
    <Card title={t`Verification`} id="verification">
      {/* Scrolls sideways on a phone: a focus stop so the keyboard can scroll it too. */}
      <div className={card.scroll} tabIndex={0} role="region" aria-label={t`Verification levels`}>
        <table className={card.table} data-testid="verification-levels">
          <caption className={shell.visuallyHidden}>{t`Verification levels and what each unlocks`}</caption>
          <thead>
            <tr>
              <th className={card.th} scope="col">{t`Level`}</th>
              <th className={card.th} scope="col">{t`Unlocks`}</th>
              <th className={card.th} scope="col">{t`Status`}</th>
            </tr>
          </thead>
          <tbody>
            {levels.map((l) => (
              <tr key={l} aria-current={l === current ? "true" : undefined}>
                <th className={card.td} scope="row" style={{ textAlign: "start" }}>
                  {i18n._(LEVEL_NAMES[l])}
                </th>
                <td className={card.td}>{i18n._(UNLOCKS[l])}</td>
                <td className={card.td}>
                  {l <= current ? (
                    <span className={card.badgeOn}>{l === current ? t`Your level` : t`Included`}</span>
                  ) : kyc.status === "pending" && kyc.level === l ? (
                    <span className={card.badgeOff}>{t`Under review`}</span>
                  ) : (
                    <span className={card.badgeOff}>{t`Not yet`}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {kyc.status === "pending" && (
        <p className={css.info} role="status" data-testid="kyc-status">
          {t`Your request for ${requested} is under review (sent ${submitted}). We will e-mail you when it is decided.`}
        </p>
      )}
      {kyc.status === "rejected" && (
        <p className={css.alert} data-testid="kyc-status">
          {t`Your request for ${requested} was not approved: ${reason}. Correct the form below and send it again.`}
        </p>
      )}
      {kyc.status === "approved" && (
        <p className={css.info} data-testid="kyc-status">
          {t`Your request for ${requested} was approved.`}
        </p>
      )}
      <UsPerson answer={kyc.usResident} onChange={onChange} />
      {kyc.usResident === false && current < VERIFICATION_LEVELS.FULL && kyc.status !== "pending" && (
        <KycForm current={current} kind={kyc.kind ?? "individual"} onSubmitted={onChange} />
      )}
    </Card>
  );
}

function UsPerson({ answer, onChange }: { readonly answer: boolean | null; readonly onChange: () => Promise<void> }) {
  const { t } = useLingui();
  const [choice, setChoice] = useState<boolean | null>(answer);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorText = useErrorText();
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (choice === null) {
      setError(t`Choose yes or no.`);
      return;
    }
    setBusy(true);
    const r = await answerUsResident(choice);
    setBusy(false);
    if (!r.ok) {
      setError(errorText(r.error));
      return;
    }
    setError(null);
    await onChange();
  };
  return (
    <form onSubmit={(e) => void save(e)} className={card.row} data-testid="us-person">
      <fieldset style={{ border: "none", padding: 0, margin: 0 }}>
        <legend>{t`Are you a US person (a citizen or resident of the United States)?`}</legend>
        <label>
          <input type="radio" name="us" checked={choice === true} onChange={() => setChoice(true)} /> {t`Yes`}
        </label>{" "}
        <label>
          <input type="radio" name="us" checked={choice === false} onChange={() => setChoice(false)} /> {t`No`}
        </label>
      </fieldset>
      <button type="submit" className={shell.ghostButton} disabled={busy || choice === answer}>
        {t`Save answer`}
      </button>
      {answer === true && (
        <p className={css.alert}>
          {t`Our terms exclude US persons: deposits, margin trading and verification are closed to this account. You can still withdraw what you hold.`}
        </p>
      )}
      {error && (
        <p className={css.fieldError} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function KycForm({
  current,
  kind: initialKind,
  onSubmitted,
}: {
  readonly current: VerificationLevel;
  readonly kind: KycKind;
  readonly onSubmitted: () => Promise<void>;
}) {
  const { t, i18n } = useLingui();
  const next = Math.min(current + 1, 3) as VerificationLevel;
  const [kind, setKind] = useState<KycKind>(initialKind);
  const [level, setLevel] = useState<VerificationLevel>(next);
  const [data, setData] = useState<KycData>(EMPTY);
  const [problems, setProblems] = useState<KycProblems>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorText = useErrorText();
  const set = (f: KycField, v: string | boolean) => setData((d) => ({ ...d, [f]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const sub = { kind, level, data: { ...data, resid_country: data.resid_country.trim().toUpperCase() } };
    const found = kycProblems(sub);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setError(t`Check the fields marked below.`);
      return;
    }
    setBusy(true);
    const r = await submitKyc(sub);
    setBusy(false);
    if (!r.ok) {
      if (r.error.kind === "field") setProblems({ [r.error.field]: r.error.problem });
      setError(errorText(r.error));
      return;
    }
    setError(null);
    await onSubmitted();
  };

  const field = (f: Exclude<KycField, "high_net_worth">) => {
    const problem = problems[f];
    const id = `kyc-${f}`;
    return (
      <label key={f} className={css.field} htmlFor={id}>
        <span>
          {i18n._(FIELD_LABELS[f])}
          {OPTIONAL.has(f) ? ` ${t`(optional)`}` : ""}
        </span>
        <input
          id={id}
          className={css.input}
          value={data[f]}
          maxLength={120}
          aria-invalid={problem !== undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          autoComplete={
            f === "first_name"
              ? "given-name"
              : f === "last_name"
                ? "family-name"
                : f === "resid_zipcode"
                  ? "postal-code"
                  : f === "resid_city"
                    ? "address-level2"
                    : f === "resid_country"
                      ? "country"
                      : "off"
          }
          onChange={(e) => set(f, e.target.value)}
        />
        {problem && (
          <span id={`${id}-error`} className={css.fieldError}>
            {i18n._(PROBLEMS[problem])}
          </span>
        )}
      </label>
    );
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="kyc-form" className={card.page}>
      <h3 className={card.h3}>{t`Ask for a higher level`}</h3>
      <fieldset style={{ border: "none", padding: 0, margin: 0 }}>
        <legend>{t`This account belongs to`}</legend>
        <label>
          <input type="radio" name="kind" checked={kind === "individual"} onChange={() => setKind("individual")} />{" "}
          {t`A person`}
        </label>{" "}
        <label>
          <input type="radio" name="kind" checked={kind === "corporate"} onChange={() => setKind("corporate")} />{" "}
          {t`A company`}
        </label>
      </fieldset>
      <label className={css.field} htmlFor="kyc-level">
        <span>{t`Level to ask for`}</span>
        <select
          id="kyc-level"
          className={css.input}
          value={level}
          onChange={(e) => setLevel(Number(e.target.value) as VerificationLevel)}
        >
          {([1, 2, 3] as const)
            .filter((l) => l > current)
            .map((l) => (
              <option key={l} value={l}>
                {i18n._(LEVEL_NAMES[l])}
              </option>
            ))}
        </select>
      </label>
      <div className={css.grid}>
        {field("first_name")}
        {field("last_name")}
        {kind === "corporate" && field("full_corporate_name")}
      </div>
      {kind === "corporate" && (
        <label>
          <input
            type="checkbox"
            checked={data.high_net_worth}
            onChange={(e) => set("high_net_worth", e.target.checked)}
          />{" "}
          {t`The company is a high-net-worth entity (this changes which deposits are open to it)`}
        </label>
      )}
      <h4 className={card.h3}>{t`Residential address`}</h4>
      <div className={css.grid}>{ADDRESS.map(field)}</div>
      {error && (
        <p className={css.alert} role="alert" data-testid="kyc-error">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className={shell.button} disabled={busy}>
          {busy ? t`Sending…` : t`Send for review`}
        </button>
      </div>
    </form>
  );
}

/** The compliance gates in words, with the ones that apply to this account said so. */
function Rules({ view }: { readonly view: AccountView }) {
  const { t, i18n } = useLingui();
  const s = useSnapshot(settings);
  const created = view.user.mtsAccountCreate;
  const country = view.kyc.country ?? view.user.signupCountry ?? null;
  const d = (mts: number) => new Intl.DateTimeFormat(intlTag(s.locale), { dateStyle: "long" }).format(mts);
  const marginNeed = created === null ? "" : i18n._(LEVEL_NAMES[marginLevelNeeded(created)]);
  const openedOn = created === null ? "" : d(created);
  const basicFrom = d(MARGIN_BASIC_PLUS_FROM);
  const interFrom = d(MARGIN_INTERMEDIATE_FROM);
  const spainFrom = d(SPAIN_DERIVATIVES_BLOCK_FROM);
  const japanFrom = d(JAPAN_BLOCK_FROM);
  const applies = <span className={card.badgeOn}> {t`Applies to you`}</span>;
  return (
    <Card title={t`Rules that apply to your account`} id="rules">
      <ul className={card.list} data-testid="account-rules">
        <li className={card.item}>
          <strong>{t`Margin trading`}</strong>
          <span>
            {t`Accounts opened from ${basicFrom} need Basic plus to trade on margin, and from ${interFrom} Intermediate. Older accounts trade on margin at any level. Paper trading is never limited.`}
          </span>
          {created !== null && (
            <span>{t`Your account was opened on ${openedOn}: margin trading needs ${marginNeed}.`}</span>
          )}
        </li>
        <li className={card.item}>
          <strong>{t`Derivatives in Spain`}</strong>
          <span>{t`Since ${spainFrom}, residents of Spain cannot trade derivatives.`}</span>
          {country === "ES" && applies}
        </li>
        <li className={card.item}>
          <strong>{t`Japan`}</strong>
          <span>{t`Since ${japanFrom}, residents of Japan are served by our Japanese platform only.`}</span>
          {country === "JP" && applies}
        </li>
      </ul>
    </Card>
  );
}

function Freeze() {
  const { t } = useLingui();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorText = useErrorText();
  const freeze = async () => {
    const r = await freezeOwnAccount();
    if (r.ok) {
      // Every credential is gone: the next check signs this tab out; the freeze page says what next.
      window.location.assign("/freeze?done=1");
      return;
    }
    setAsking(false);
    setError(errorText(r.error));
  };
  return (
    <Card title={t`Freeze your account`} id="freeze">
      <p>
        <Trans>
          If you think someone else has access to your account, freeze it. Every session and API key stops at once; only
          support can lift the freeze.
        </Trans>
      </p>
      <div>
        <button type="button" className={card.danger} onClick={() => setAsking(true)}>
          {t`Freeze my account`}
        </button>
      </div>
      {error && (
        <p className={css.fieldError} role="alert">
          {error}
        </p>
      )}
      <Modal open={asking} title={t`Freeze your account now?`} onClose={() => setAsking(false)} testId="freeze-dialog">
        <p>{t`You will be signed out everywhere and your API keys will stop working until support lifts the freeze.`}</p>
        <div className={card.row}>
          <button type="button" className={card.danger} onClick={() => void freeze()}>
            {t`Freeze now`}
          </button>
          <button type="button" className={shell.ghostButton} onClick={() => setAsking(false)}>
            {t`Cancel`}
          </button>
        </div>
      </Modal>
    </Card>
  );
}
