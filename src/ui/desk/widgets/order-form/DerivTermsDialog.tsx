import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import * as css from "./order-form.css";

export interface DerivTermsDialogProps {
  /** Records the acceptance with the exchange; false when it was not stored. */
  readonly onAccept: () => Promise<boolean>;
  /** Accepted and welcomed: the order goes on to its confirmation. */
  readonly onDone: () => void;
  readonly onCancel: () => void;
}

/**
 * The derivatives terms, then the welcome, before a user's first derivatives order
 * (docs/product-rules.md#derivatives): one modal <dialog> in two steps. Accepting needs the box
 * ticked and is stored with the exchange before the welcome shows; a failure to store it says so
 * and stays on the terms, so the next order asks again rather than trade on an unrecorded consent.
 */
export function DerivTermsDialog(props: DerivTermsDialogProps) {
  const { t } = useLingui();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [step, setStep] = useState<"terms" | "welcome">("terms");
  const [agreed, setAgreed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const { onCancel } = props;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const cancel = (e: Event) => {
      e.preventDefault();
      onCancel();
    };
    dialog.addEventListener("cancel", cancel);
    return () => {
      dialog.removeEventListener("cancel", cancel);
      if (dialog.open) dialog.close();
    };
  }, [onCancel]);

  const accept = async (): Promise<void> => {
    if (!agreed || saving) return;
    setSaving(true);
    setFailed(false);
    const ok = await props.onAccept();
    setSaving(false);
    if (ok) setStep("welcome");
    else setFailed(true);
  };

  // Portalled to <body>, as the order confirmation is: no form inside the order form.
  return createPortal(
    <dialog ref={ref} className={css.dialog} aria-labelledby={titleId} data-testid="deriv-terms">
      <form
        method="dialog"
        className={css.dialogBody}
        onSubmit={(e) => {
          e.preventDefault();
          if (step === "terms") void accept();
          else props.onDone();
        }}
      >
        {step === "terms" ? (
          <>
            <h2 id={titleId} className={css.dialogTitle}>
              <Trans>Derivatives terms</Trans>
            </h2>
            <div className={css.ackBox}>
              <p className={css.ackText}>
                <Trans>
                  Perpetual contracts are traded with leverage against collateral in your derivatives wallet. Losses can
                  exceed what you expect: when the mark price reaches a position's liquidation price, the position is
                  closed and its collateral is lost.
                </Trans>
              </p>
              <p className={css.ackText}>
                <Trans>
                  Positions pay or receive funding every 8 hours. Derivatives are not offered in every country.
                </Trans>
              </p>
            </div>
            <label className={css.check}>
              <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
              <Trans>I have read and accept the derivatives terms</Trans>
            </label>
            {failed && (
              <p className={css.message.error} role="alert">
                <Trans>Your acceptance could not be saved. Try again.</Trans>
              </p>
            )}
            <div className={css.dialogActions}>
              <button type="button" className={css.secondaryButton} onClick={onCancel}>
                <Trans>Cancel</Trans>
              </button>
              <button type="submit" className={css.submitButton.buy} disabled={!agreed || saving}>
                {t`Accept`}
              </button>
            </div>
          </>
        ) : (
          <>
            <h2 id={titleId} className={css.dialogTitle}>
              <Trans>Welcome to derivatives</Trans>
            </h2>
            <ul className={css.ackBox}>
              <li className={css.ackText}>
                <Trans>Move USDt to your derivatives wallet: it is your collateral.</Trans>
              </li>
              <li className={css.ackText}>
                <Trans>Leverage multiplies gains and losses alike.</Trans>
              </li>
              <li className={css.ackText}>
                <Trans>Add collateral to a position to move its liquidation price away.</Trans>
              </li>
            </ul>
            <div className={css.dialogActions}>
              <button type="submit" className={css.submitButton.buy} autoFocus>
                <Trans>Continue</Trans>
              </button>
            </div>
          </>
        )}
      </form>
    </dialog>,
    document.body,
  );
}
