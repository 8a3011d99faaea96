import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import { isFeatureEnabled, WALLET_TYPE, type AccountView } from "../../../protocol";
import { platform } from "../../config";
import { accountStore } from "../../desk/account-store";
import { Modal } from "../../desk/Modal";
import { notify } from "../../desk/notices";
import { formatAmount } from "../../desk/widgets/tables/format";
import type { WidgetProps } from "../../desk/widget";
import { currencyOf } from "./currency";
import * as css from "./funding-account.css";
import { issueText } from "./messages";
import {
  checkOffer,
  dailyPercent,
  EMPTY_OFFER,
  isHighCostBorrow,
  minimumAmount,
  yearlyPercent,
  type FundingSide,
  type OfferField,
  type OfferIssue,
  type OfferRequest,
  type OfferValues,
  type RateMode,
} from "./model";
import { useFundingServices } from "./services";

/** Whether borrowing is offered: a variant may keep lending and switch borrowing off. */
function borrowOffered(): boolean {
  try {
    return isFeatureEnabled(platform(), "borrow");
  } catch {
    // No config loaded (a component test): every feature is on, as in the default variant.
    return true;
  }
}

function fundingAvailable(view: AccountView | null, currency: string): number | null {
  if (!view) return null;
  const w = view.wallets.find((x) => x.type === WALLET_TYPE.FUNDING && x.currency === currency);
  return w ? w.available : 0;
}

/**
 * The funding offer form: lend or borrow, at a fixed rate or the FRR plus a delta, for 2 to 120
 * days, hidden and auto-renewing at will. Checked as typed by the exchange's rules (model.ts); a
 * borrow at a high cost asks first (docs/product-rules.md#funding-offers); the exchange's answer
 * is shown under the button and as a notice.
 */
export function OfferForm(props: WidgetProps) {
  const { t } = useLingui();
  const services = useFundingServices();
  const currency = currencyOf(props);
  const account = useSnapshot(accountStore);
  const canBorrow = borrowOffered();
  const [values, setValues] = useState<OfferValues>(EMPTY_OFFER);
  const [attempted, setAttempted] = useState(false);
  // Kept with the currency they are of, so a switch to another currency shows neither until its own come.
  const [frrOf, setFrrOf] = useState<{ readonly currency: string; readonly value: number | null } | null>(null);
  const [priceOf, setPriceOf] = useState<{ readonly currency: string; readonly value: number | null } | null>(null);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ readonly ok: boolean; readonly text: string } | null>(null);
  const [confirm, setConfirm] = useState<{ readonly request: OfferRequest; readonly rate: number } | null>(null);
  const id = useId();

  useEffect(() => {
    const ac = new AbortController();
    services.watchFrr(currency, (value) => setFrrOf({ currency, value }), ac.signal);
    services.watchUsdPrice(currency, (value) => setPriceOf({ currency, value }), ac.signal);
    return () => ac.abort();
  }, [services, currency]);

  const frr = frrOf?.currency === currency ? frrOf.value : null;
  const usdPrice = priceOf?.currency === currency ? priceOf.value : null;
  const live = account.link === "live";
  const available = fundingAvailable(account.view, currency);
  const env = { currency, available, usdPrice, frr };
  const check = checkOffer(values, env);
  const side: FundingSide = canBorrow ? values.side : "lend";
  const set = (patch: Partial<OfferValues>): void => {
    setValues((v) => ({ ...v, ...patch }));
    setResult(null);
  };

  const send = (request: OfferRequest): void => {
    setPending(true);
    setResult(null);
    void services.call("/v2/auth/w/funding/offer/submit", { ...request }).then((r) => {
      setPending(false);
      const reason = r.text;
      const text = r.ok
        ? t`Offer placed.`
        : reason === ""
          ? t`The exchange did not take the offer. Check your offers before trying again.`
          : t`The exchange refused the offer: ${reason}`;
      setResult({ ok: r.ok, text });
      notify({ level: r.ok ? "success" : "error", kind: "funding", text });
      if (r.ok) {
        setAttempted(false);
        setValues((v) => ({ ...v, amount: "" }));
      }
    });
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>): void => {
    e.preventDefault();
    if (pending || !live) return;
    setAttempted(true);
    const c = checkOffer({ ...values, side }, env);
    if (!c.ok) {
      const first = (["rate", "period", "amount"] as const).find((f) => c.issues[f]);
      if (first) document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    if (isHighCostBorrow(side, c.dailyRate, frr) && c.dailyRate !== null) {
      setConfirm({ request: c.request, rate: c.dailyRate });
      return;
    }
    send(c.request);
  };

  const issue = (f: OfferField): OfferIssue | undefined => (check.ok || !attempted ? undefined : check.issues[f]);
  const min = minimumAmount(usdPrice);
  const ratePct = Number(values.rate.replace(",", "."));
  const shownRate =
    values.mode === "fixed"
      ? Number.isFinite(ratePct) && values.rate.trim() !== ""
        ? ratePct / 100
        : null
      : frr === null
        ? null
        : frr + (Number.isFinite(ratePct) ? ratePct / 100 : 0);
  const frrText = dailyPercent(frr);
  const confirmDaily = dailyPercent(confirm?.rate ?? null);
  const confirmYearly = yearlyPercent(confirm?.rate ?? null);
  const yearlyText = yearlyPercent(shownRate);
  const availableText = formatAmount(available);
  const minText = min === null ? "—" : formatAmount(min);
  const modes: readonly { value: RateMode; label: string }[] = [
    { value: "fixed", label: t`Fixed rate` },
    { value: "frr-var", label: t`FRR + delta, floating` },
    { value: "frr-fix", label: t`FRR + delta, fixed at opening` },
  ];

  return (
    <form className={css.root} onSubmit={onSubmit} noValidate aria-label={t`Funding offer, ${currency}`}>
      {canBorrow && (
        <div className={css.segmented} role="radiogroup" aria-label={t`Lend or borrow`}>
          {(["lend", "borrow"] as const).map((s) => (
            <button
              key={s}
              type="button"
              role="radio"
              aria-checked={side === s}
              className={css.segment[s === "lend" ? "buy" : "sell"]}
              onClick={() => set({ side: s })}
            >
              {s === "lend" ? t`Lend` : t`Borrow`}
            </button>
          ))}
        </div>
      )}
      <div className={css.field}>
        <label className={css.label} htmlFor={`${id}-mode`}>
          <Trans>Rate type</Trans>
        </label>
        <select
          id={`${id}-mode`}
          className={css.select}
          value={values.mode}
          onChange={(e) => set({ mode: e.target.value as RateMode })}
        >
          {modes.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </div>
      <Field
        id={`${id}-rate`}
        label={values.mode === "fixed" ? t`Rate, % a day` : t`Delta over FRR, % a day`}
        value={values.rate}
        onChange={(rate) => set({ rate })}
        issue={issue("rate")}
        currency={currency}
        hint={
          <>
            <Trans>FRR {frrText}</Trans>
            {shownRate !== null && (
              <>
                {" · "}
                <Trans>{yearlyText} a year</Trans>
              </>
            )}
          </>
        }
      />
      <div className={css.row}>
        <Field
          id={`${id}-period`}
          label={t`Period, days`}
          value={values.period}
          onChange={(period) => set({ period })}
          issue={issue("period")}
          currency={currency}
          inputMode="numeric"
        />
        <Field
          id={`${id}-amount`}
          label={t`Amount, ${currency}`}
          value={values.amount}
          onChange={(amount) => set({ amount })}
          issue={issue("amount")}
          currency={currency}
          hint={
            <>
              {side === "lend" && (
                <>
                  <Trans>Available {availableText}</Trans>
                  {" · "}
                </>
              )}
              <Trans>Min. {minText}</Trans>
            </>
          }
        />
      </div>
      <div className={css.options}>
        <label className={css.check}>
          <input type="checkbox" checked={values.hidden} onChange={(e) => set({ hidden: e.target.checked })} />
          <Trans>Hidden</Trans>
        </label>
        <label className={css.check}>
          <input type="checkbox" checked={values.renew} onChange={(e) => set({ renew: e.target.checked })} />
          <Trans>Renew when it returns</Trans>
        </label>
      </div>
      {live ? (
        <button
          type="submit"
          className={css.submitButton[side === "lend" ? "buy" : "sell"]}
          disabled={pending}
          aria-busy={pending}
        >
          {side === "lend" ? t`Lend ${currency}` : t`Borrow ${currency}`}
        </button>
      ) : (
        <p className={css.message.note}>
          <Trans>Sign in to lend or borrow.</Trans>
        </p>
      )}
      <p role="status" className={result?.ok === false ? css.message.error : css.message.note}>
        {result?.text ?? ""}
      </p>
      <Modal
        open={confirm !== null}
        title={t`This loan is expensive`}
        onClose={() => setConfirm(null)}
        testId="high-cost-dialog"
      >
        {confirm && (
          <>
            <p className={css.warningText}>
              <Trans>
                You are about to borrow at {confirmDaily} a day ({confirmYearly} a year), well above the usual cost (FRR{" "}
                {frrText}). Interest is charged every day the loan is open.
              </Trans>
            </p>
            <div className={css.dialogActions}>
              <button type="button" className={css.button.plain} onClick={() => setConfirm(null)}>
                <Trans>Cancel</Trans>
              </button>
              <button
                type="button"
                className={css.button.danger}
                onClick={() => {
                  const c = confirm;
                  setConfirm(null);
                  send(c.request);
                }}
              >
                <Trans>Borrow anyway</Trans>
              </button>
            </div>
          </>
        )}
      </Modal>
    </form>
  );
}

function Field(props: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly issue: OfferIssue | undefined;
  readonly currency: string;
  readonly hint?: ReactNode;
  readonly inputMode?: "decimal" | "numeric";
}) {
  const { i18n } = useLingui();
  const errorId = `${props.id}-error`;
  const hintId = `${props.id}-hint`;
  const described = [props.issue ? errorId : null, props.hint ? hintId : null].filter(Boolean).join(" ");
  return (
    <div className={css.field}>
      <label className={css.label} htmlFor={props.id}>
        {props.label}
      </label>
      <input
        id={props.id}
        className={css.input}
        value={props.value}
        inputMode={props.inputMode ?? "decimal"}
        autoComplete="off"
        aria-invalid={props.issue !== undefined}
        aria-describedby={described === "" ? undefined : described}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.issue && (
        <p id={errorId} className={css.message.error}>
          {issueText(i18n, props.issue, props.currency)}
        </p>
      )}
      {props.hint && (
        <p id={hintId} className={css.message.note}>
          {props.hint}
        </p>
      )}
    </div>
  );
}
