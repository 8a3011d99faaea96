import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { currencyTicker, WITHDRAWAL_STATUS, type WithdrawalConfirmCheck } from "../../protocol";
import { useAmountText } from "../movements/MovementParts";
import { checkConfirmLink, confirmWithdrawal, type WithdrawError } from "./withdraw-api";
import { Fact } from "./WithdrawForm";
import { useErrorText } from "./words";
import * as x from "./withdrawals.css";

type ConfirmState =
  | { readonly kind: "checking" }
  | { readonly kind: "ask"; readonly subject: WithdrawalConfirmCheck }
  | { readonly kind: "failed"; readonly error: WithdrawError };

/**
 * The mailed link's landing: what would be confirmed, and a Confirm button. Opening the link changes
 * nothing (a mail scanner may fetch it); only the owner's press confirms.
 */
export function ConfirmPanel({
  token,
  onConfirmed,
}: {
  readonly token: string;
  readonly onConfirmed: (ccy: string) => void;
}) {
  const { t } = useLingui();
  const fmt = useAmountText();
  const errorText = useErrorText();
  const [state, setState] = useState<ConfirmState>({ kind: "checking" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<WithdrawError | null>(null);
  useEffect(() => {
    let live = true;
    void checkConfirmLink(token).then((r) => {
      if (live) setState(r.ok ? { kind: "ask", subject: r.value } : { kind: "failed", error: r.error });
    });
    return () => {
      live = false;
    };
  }, [token]);
  const confirm = async (): Promise<void> => {
    if (state.kind !== "ask") return;
    setBusy(true);
    setError(null);
    const r = await confirmWithdrawal(token);
    setBusy(false);
    if (r.ok) onConfirmed(state.subject.currency);
    else setError(r.error);
  };
  const said = (e: WithdrawError): string =>
    errorText(e) ?? t`The exchange had a problem answering. Try again in a moment.`;
  return (
    <section className={`${x.card} ${x.confirm}`} aria-labelledby="withdraw-confirm" data-testid="withdraw-confirm">
      <h2 className={x.legend} id="withdraw-confirm">
        <Trans>Confirm your withdrawal</Trans>
      </h2>
      {state.kind === "checking" && (
        <p className={x.muted} role="status">
          <Trans>Checking the link…</Trans>
        </p>
      )}
      {state.kind === "failed" && (
        <p className={x.alert} role="alert">
          {said(state.error)}
        </p>
      )}
      {state.kind === "ask" && (
        <>
          <dl className={x.confirmFacts}>
            <Fact
              term={t`Amount`}
              value={`${fmt(state.subject.amount)} ${currencyTicker(state.subject.currency)}`}
              testId="withdraw-confirm-amount"
            />
            <div className={x.fact}>
              <dt className={x.term}>
                <Trans>Address</Trans>
              </dt>
              <dd className={`${x.value} ${x.mono}`}>{state.subject.address}</dd>
            </div>
          </dl>
          {state.subject.status === WITHDRAWAL_STATUS.unconfirmed ? (
            <>
              <p className={x.hint}>
                <Trans>Check the amount and the address. Once confirmed, the withdrawal is queued to be sent.</Trans>
              </p>
              {error !== null && (
                <p className={x.alert} role="alert">
                  {said(error)}
                </p>
              )}
              <div className={x.actions}>
                <button type="button" className={x.button} disabled={busy} onClick={() => void confirm()}>
                  <Trans>Confirm the withdrawal</Trans>
                </button>
              </div>
            </>
          ) : (
            <p className={x.hint} role="status">
              <Trans>This withdrawal is no longer waiting for confirmation.</Trans>
            </p>
          )}
        </>
      )}
    </section>
  );
}
