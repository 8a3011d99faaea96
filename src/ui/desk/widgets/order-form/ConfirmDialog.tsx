import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import type { OrderSide } from "../../desk-state";
import * as css from "./order-form.css";

export interface SummaryRow {
  readonly key: string;
  readonly label: string;
  readonly value: ReactNode;
}

/** Warnings the user must read once (settings ack_stop_order_warning / ack_interactive_book_order_warning). */
export interface Acknowledgements {
  readonly stop: boolean;
  readonly book: boolean;
}

export interface ConfirmDialogProps {
  readonly title: string;
  readonly side: OrderSide;
  readonly rows: readonly SummaryRow[];
  /** Which one-time warnings to show. */
  readonly warn: Acknowledgements;
  /** Confirmed; `dontShowAgain` says which warnings the user asked not to see again. */
  readonly onConfirm: (dontShowAgain: Acknowledgements) => void;
  readonly onCancel: () => void;
}

/**
 * The last look before an order goes out: a modal <dialog> (native focus trap, Escape cancels)
 * with the order's summary and, the first times, the stop-order and book-click warnings, each with
 * its "don't show again" box. The confirm button has the focus, so Enter, Enter places an order.
 * React events from the portal still bubble to the order form's handlers; the form ignores a
 * submit while a confirmation is open.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useLingui();
  const ref = useRef<HTMLDialogElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const [dontShow, setDontShow] = useState<Acknowledgements>({ stop: false, book: false });
  const { onCancel } = props;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    // showModal focuses the first control (a checkbox, or Cancel); Enter should confirm.
    confirmRef.current?.focus();
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

  // Portalled to <body>: inside the order form it would be a form in a form, which the browser
  // does not submit.
  return createPortal(
    <dialog ref={ref} className={css.dialog} aria-labelledby={titleId} data-testid="order-confirm">
      <form
        method="dialog"
        className={css.dialogBody}
        onSubmit={(e) => {
          e.preventDefault();
          props.onConfirm(dontShow);
        }}
      >
        <h2 id={titleId} className={css.dialogTitle}>
          {props.title}
        </h2>
        <dl className={css.summary}>
          {props.rows.map((r) => (
            <div key={r.key} className={css.summaryRow}>
              <dt>{r.label}</dt>
              <dd data-testid={`confirm-${r.key}`}>{r.value}</dd>
            </div>
          ))}
        </dl>
        {props.warn.stop && (
          <div className={css.ackBox} role="note" data-testid="ack-stop">
            <p className={css.ackText}>
              <Trans>
                Stop orders wait off the book and become market or limit orders when the last price crosses the trigger.
                In a fast market they can fill far from the trigger price, or not at all.
              </Trans>
            </p>
            <label className={css.check}>
              <input
                type="checkbox"
                checked={dontShow.stop}
                onChange={(e) => setDontShow((d) => ({ ...d, stop: e.target.checked }))}
              />
              <Trans>Don't show this again</Trans>
            </label>
          </div>
        )}
        {props.warn.book && (
          <div className={css.ackBox} role="note" data-testid="ack-book">
            <p className={css.ackText}>
              <Trans>
                This order was filled in from a click on the order book. The book moves quickly: check the price and
                amount before you place it.
              </Trans>
            </p>
            <label className={css.check}>
              <input
                type="checkbox"
                checked={dontShow.book}
                onChange={(e) => setDontShow((d) => ({ ...d, book: e.target.checked }))}
              />
              <Trans>Don't show this again</Trans>
            </label>
          </div>
        )}
        <div className={css.dialogActions}>
          <button type="button" className={css.secondaryButton} onClick={onCancel}>
            <Trans>Cancel</Trans>
          </button>
          <button type="submit" className={css.submitButton[props.side]} ref={confirmRef} data-testid="confirm-order">
            {props.side === "buy" ? t`Confirm buy` : t`Confirm sell`}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}
