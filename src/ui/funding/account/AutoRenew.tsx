import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState, type FormEvent } from "react";
import { useSnapshot } from "valtio";
import { fundingAutoCodec, FUNDING_PERIOD_MIN } from "../../../protocol";
import { accountStore } from "../../desk/account-store";
import { notify } from "../../desk/notices";
import type { WidgetProps } from "../../desk/widget";
import { currencyOf } from "./currency";
import * as css from "./funding-account.css";
import { issueText } from "./messages";
import { checkAutoRenew, rateText, type AutoRenewField, type AutoRenewValues } from "./model";
import { useFundingServices } from "./services";

const OFF: AutoRenewValues = { active: false, period: String(FUNDING_PERIOD_MIN), rate: "", threshold: "" };

/**
 * The currency's auto-renew setting (`w/funding/auto`): when on, what comes back from the
 * account's credits is offered again for `period` days at `rate` (empty: at the FRR), up to
 * `threshold` (empty: all of it). Read from the exchange when shown (`r/funding/auto`).
 */
export function AutoRenew(props: WidgetProps) {
  const { t, i18n } = useLingui();
  const services = useFundingServices();
  const currency = currencyOf(props);
  const live = useSnapshot(accountStore).link === "live";
  const [values, setValues] = useState<AutoRenewValues>(OFF);
  const [loaded, setLoaded] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ readonly ok: boolean; readonly text: string } | null>(null);
  const id = useId();

  useEffect(() => {
    if (!live) return;
    let stale = false;
    void services.call("/v2/auth/r/funding/auto", { currency }).then((r) => {
      if (stale) return;
      setLoaded(true);
      const d = r.ok && r.data !== null ? fundingAutoCodec.decode(r.data) : null;
      setValues(
        d?.ok
          ? {
              active: true,
              period: String(d.value.period),
              rate: d.value.rate > 0 ? rateText(d.value.rate * 100) : "",
              threshold: d.value.threshold > 0 ? String(d.value.threshold) : "",
            }
          : OFF,
      );
    });
    return () => {
      stale = true;
    };
  }, [services, currency, live]);

  const check = checkAutoRenew(values, currency);
  const issue = (f: AutoRenewField) => (check.ok || !attempted ? undefined : check.issues[f]);
  const set = (patch: Partial<AutoRenewValues>): void => {
    setValues((v) => ({ ...v, ...patch }));
    setResult(null);
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>): void => {
    e.preventDefault();
    if (pending || !live) return;
    setAttempted(true);
    if (!check.ok) return;
    setPending(true);
    void services.call("/v2/auth/w/funding/auto", check.body).then((r) => {
      setPending(false);
      const reason = r.text;
      const text = r.ok
        ? values.active
          ? t`Auto-renew is on for ${currency}.`
          : t`Auto-renew is off for ${currency}.`
        : reason === ""
          ? t`The exchange did not answer.`
          : t`The exchange refused: ${reason}`;
      setResult({ ok: r.ok, text });
      notify({ level: r.ok ? "success" : "error", kind: "funding", text });
      if (r.ok) setAttempted(false);
    });
  };

  if (!live)
    return (
      <div className={css.root}>
        <p className={css.message.note}>
          <Trans>Sign in to set auto-renew.</Trans>
        </p>
      </div>
    );

  const fields: readonly { key: AutoRenewField; label: string }[] = [
    { key: "period", label: t`Period, days` },
    { key: "rate", label: t`Rate, % a day (empty: FRR)` },
    { key: "threshold", label: t`Up to, ${currency} (empty: all)` },
  ];
  return (
    <form
      className={css.root}
      onSubmit={onSubmit}
      noValidate
      aria-label={t`Auto-renew, ${currency}`}
      aria-busy={!loaded}
    >
      <label className={css.check}>
        <input type="checkbox" checked={values.active} onChange={(e) => set({ active: e.target.checked })} />
        <Trans>Offer returned funds again</Trans>
      </label>
      {fields.map((f) => {
        const problem = issue(f.key);
        const inputId = `${id}-${f.key}`;
        return (
          <div className={css.field} key={f.key}>
            <label className={css.label} htmlFor={inputId}>
              {f.label}
            </label>
            <input
              id={inputId}
              className={css.input}
              value={values[f.key]}
              disabled={!values.active}
              inputMode={f.key === "period" ? "numeric" : "decimal"}
              autoComplete="off"
              aria-invalid={problem !== undefined}
              aria-describedby={problem ? `${inputId}-error` : undefined}
              onChange={(e) => set({ [f.key]: e.target.value })}
            />
            {problem && (
              <p id={`${inputId}-error`} className={css.message.error}>
                {issueText(i18n, problem, currency)}
              </p>
            )}
          </div>
        );
      })}
      <button type="submit" className={css.button.primary} disabled={pending || !loaded}>
        <Trans>Save auto-renew</Trans>
      </button>
      <p role="status" className={result?.ok === false ? css.message.error : css.message.note}>
        {result?.text ?? ""}
      </p>
    </form>
  );
}
