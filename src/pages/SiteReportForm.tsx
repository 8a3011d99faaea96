/**
 * The report form shared by the report page (a problem with the exchange) and the anti-spam page
 * (a suspicious message claiming to be us): docs/product-rules.md#site-reports. The rules are
 * src/protocol's, checked here as the exchange checks them again; a refusal is worded per field,
 * and a stored report is answered with its reference.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useSearch } from "wouter";
import {
  PROBLEM_CATEGORIES,
  REPORT_DESCRIPTION_MAX,
  REPORT_DESCRIPTION_MIN,
  REPORT_SOURCE_MAX,
  REPORT_SOURCE_MIN,
  SPAM_CHANNELS,
  siteReportProblems,
  type ProblemCategory,
  type SiteReport,
  type SiteReportField,
  type SiteReportKind,
  type SiteReportProblems,
  type SiteReportReason,
  type SpamChannel,
} from "../protocol";
import { openingHttp } from "../ui/session";
import { submitSiteReport, type SiteReportError } from "../ui/site-reports/api";
import * as css from "./pages.css";
import * as sc from "./session.css";
import * as rc from "./site-report.css";

type Values = Pick<SiteReport, "category" | "description" | "email" | "source">;
const EMPTY: Values = { category: "", description: "", email: "", source: "" };
/** The fields in the form's order: the first one refused gets the focus. */
const ORDER: readonly SiteReportField[] = ["category", "source", "description", "email"];

function presetCategory(kind: SiteReportKind, search: string): string {
  const wanted = new URLSearchParams(search).get("category");
  const choices: readonly string[] = kind === "problem" ? PROBLEM_CATEGORIES : SPAM_CHANNELS;
  return wanted !== null && choices.includes(wanted) ? wanted : "";
}

export function SiteReportForm({ kind }: { readonly kind: SiteReportKind }) {
  const { t } = useLingui();
  const id = useId();
  const search = useSearch();
  // A link may choose the category (the bug bounty's `/report?category=security`). The prerendered
  // form has none; a select's value is a property React sets after hydration, not markup, so the
  // hydrated form may start from the link's choice.
  const [values, setValues] = useState<Values>(() => ({ ...EMPTY, category: presetCategory(kind, search) }));
  const [problems, setProblems] = useState<SiteReportProblems>({});
  const [error, setError] = useState<SiteReportError | null>(null);
  const [busy, setBusy] = useState(false);
  const [reference, setReference] = useState<string | null>(null);
  const fields = useRef<Partial<Record<SiteReportField, HTMLElement | null>>>({});
  const receipt = useRef<HTMLHeadingElement | null>(null);

  useEffect(() => {
    if (reference !== null) receipt.current?.focus();
  }, [reference]);

  const problemLabels: Readonly<Record<ProblemCategory, string>> = {
    trading: t`Orders and trading`,
    account: t`Signing in or my account`,
    funds: t`Deposits and withdrawals`,
    website: t`The website or the app`,
    security: t`A security vulnerability`,
    abuse: t`Market abuse or another user`,
    other: t`Something else`,
  };
  const channelLabels: Readonly<Record<SpamChannel, string>> = {
    email: t`E-mail`,
    sms: t`Text message (SMS)`,
    messenger: t`Messenger (Telegram, WhatsApp…)`,
    social: t`Social network`,
    phone: t`Phone call`,
    website: t`A website or an advert`,
    other: t`Something else`,
  };
  const options: readonly (readonly [string, string])[] =
    kind === "problem"
      ? PROBLEM_CATEGORIES.map((c) => [c, problemLabels[c]] as const)
      : SPAM_CHANNELS.map((c) => [c, channelLabels[c]] as const);

  const reasonText = (field: SiteReportField, reason: SiteReportReason): string => {
    if (field === "category")
      return kind === "problem" ? t`Choose what the report is about.` : t`Choose how the message reached you.`;
    if (field === "email") return t`Enter a valid e-mail address, or leave the field empty.`;
    if (field === "source") {
      if (reason === "short") return t`Enter at least ${REPORT_SOURCE_MIN} characters.`;
      if (reason === "long") return t`Keep it within ${REPORT_SOURCE_MAX} characters.`;
      return t`Enter the sender's address, number, account name or link.`;
    }
    if (field === "description") {
      if (reason === "short") return t`Write at least ${REPORT_DESCRIPTION_MIN} characters, so we can act on it.`;
      if (reason === "long") return t`Keep it within ${REPORT_DESCRIPTION_MAX} characters.`;
      return t`Describe what happened.`;
    }
    return t`This report cannot be sent. Reload the page and try again.`;
  };

  const set = (field: keyof Values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // A corrected field loses its error as the visitor types; the others keep theirs until sent again.
    if (problems[field] !== undefined) setProblems((p) => ({ ...p, [field]: undefined }));
  };

  const report: SiteReport = { kind, ...values, source: kind === "spam" ? values.source : "" };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    const found = siteReportProblems({
      ...report,
      description: report.description.trim(),
      email: report.email.trim(),
      source: report.source.trim(),
    });
    setProblems(found);
    const first = ORDER.find((f) => found[f] !== undefined);
    if (first !== undefined) {
      fields.current[first]?.focus();
      return;
    }
    setBusy(true);
    const result = await submitSiteReport(openingHttp(), report);
    setBusy(false);
    if (result.ok) {
      setReference(result.receipt.reference);
      return;
    }
    if (result.error.kind === "field") {
      setProblems({ [result.error.field]: result.error.reason });
      fields.current[result.error.field]?.focus();
    } else setError(result.error);
  };

  if (reference !== null)
    return (
      <div className={css.info} role="status">
        <h2 className={css.h2} ref={receipt} tabIndex={-1}>
          <Trans>Report received</Trans>
        </h2>
        <p>
          <Trans>
            Your reference is <strong data-testid="report-reference">{reference}</strong>. Quote it if you write to us
            about this report.
          </Trans>
        </p>
        <p>
          {kind === "problem" ? (
            <Trans>
              Our team reads every report. If you left an e-mail address, we answer there; we never ask for your
              password or two-factor codes.
            </Trans>
          ) : (
            <Trans>
              Thank you: reports like yours help us take fake pages and accounts down. Do not reply to the message, open
              its links or download its attachments.
            </Trans>
          )}
        </p>
        <button
          type="button"
          className={css.ctaGhost}
          onClick={() => {
            setValues(EMPTY);
            setProblems({});
            setReference(null);
          }}
        >
          <Trans>Send another report</Trans>
        </button>
      </div>
    );

  const problemOf = (f: SiteReportField): string | null => {
    const r = problems[f];
    return r === undefined ? null : reasonText(f, r);
  };
  const wrap = (f: SiteReportField, labelText: ReactNode, control: ReactNode, hint?: ReactNode) => (
    <div className={css.field}>
      <label htmlFor={`${id}-${f}`}>{labelText}</label>
      {control}
      {hint !== undefined && (
        <p className={sc.hint} id={`${id}-${f}-hint`}>
          {hint}
        </p>
      )}
      {problemOf(f) !== null && (
        <p className={css.fieldError} id={`${id}-${f}-error`}>
          {problemOf(f)}
        </p>
      )}
    </div>
  );
  const described = (f: SiteReportField, hasHint: boolean): string | undefined =>
    [hasHint ? `${id}-${f}-hint` : "", problemOf(f) !== null ? `${id}-${f}-error` : ""].filter(Boolean).join(" ") ||
    undefined;

  return (
    <form className={rc.form} onSubmit={(e) => void submit(e)} noValidate aria-busy={busy}>
      {wrap(
        "category",
        kind === "problem" ? <Trans>What is it about?</Trans> : <Trans>How did it reach you?</Trans>,
        <select
          id={`${id}-category`}
          name="category"
          className={css.input}
          value={values.category}
          aria-invalid={problems.category !== undefined}
          aria-describedby={described("category", false)}
          ref={(el) => {
            fields.current.category = el;
          }}
          onChange={(e) => set("category")(e.target.value)}
        >
          <option value="">{t`Choose…`}</option>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>,
      )}
      {kind === "spam" &&
        wrap(
          "source",
          <Trans>Sender's address, number, account name or link</Trans>,
          <input
            id={`${id}-source`}
            name="source"
            className={css.input}
            value={values.source}
            maxLength={REPORT_SOURCE_MAX}
            autoComplete="off"
            aria-invalid={problems.source !== undefined}
            aria-describedby={described("source", true)}
            ref={(el) => {
              fields.current.source = el;
            }}
            onChange={(e) => set("source")(e.target.value)}
          />,
          <Trans>Copy it as it appears, for example support@0rderflow-help.com or @orderflow_support_desk.</Trans>,
        )}
      {wrap(
        "description",
        kind === "problem" ? <Trans>What happened?</Trans> : <Trans>What did it say or ask you to do?</Trans>,
        <textarea
          id={`${id}-description`}
          name="description"
          className={`${css.input} ${sc.textarea}`}
          rows={6}
          value={values.description}
          aria-invalid={problems.description !== undefined}
          aria-describedby={described("description", true)}
          ref={(el) => {
            fields.current.description = el;
          }}
          onChange={(e) => set("description")(e.target.value)}
        />,
        kind === "problem" ? (
          <Trans>
            {REPORT_DESCRIPTION_MIN}–{REPORT_DESCRIPTION_MAX} characters. Name the pair or currency, the time (UTC) and
            any order or transaction ID. Never include your password, two-factor codes or API secrets.
          </Trans>
        ) : (
          <Trans>
            {REPORT_DESCRIPTION_MIN}–{REPORT_DESCRIPTION_MAX} characters. Paste the message text if you can. Never send
            us your password, two-factor codes or recovery words: we never ask for them.
          </Trans>
        ),
      )}
      {wrap(
        "email",
        <Trans>E-mail for our answer (optional)</Trans>,
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          className={css.input}
          value={values.email}
          aria-invalid={problems.email !== undefined}
          aria-describedby={described("email", false)}
          ref={(el) => {
            fields.current.email = el;
          }}
          onChange={(e) => set("email")(e.target.value)}
        />,
      )}
      {error && (
        <p className={css.alert} role="alert">
          {error.kind === "rate-limited"
            ? t`Too many reports from your connection. Wait 15 minutes, then send it again.`
            : error.kind === "unreachable"
              ? t`The exchange could not be reached. Check your connection and send it again.`
              : t`The report could not be stored. Send it again in a moment.`}
        </p>
      )}
      <div className={css.actions}>
        <button type="submit" className={css.cta} disabled={busy}>
          {busy ? t`Sending…` : t`Send report`}
        </button>
      </div>
    </form>
  );
}
