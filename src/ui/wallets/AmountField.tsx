/**
 * A money dialog's amount: the field, "Max" (everything available, in the currency's precision),
 * and what is available, shared by the transfer and conversion dialogs so both read and behave the
 * same. The field is described by the available line and, when the form has one, by its error.
 */
import { Trans } from "@lingui/react/macro";
import * as css from "./transfer.css";

interface AmountFieldProps {
  /** The form's id prefix: the field is `{id}-amount`, the form's error `{id}-error`. */
  readonly id: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** What "Max" puts in the field. */
  readonly max: () => string;
  readonly available: number;
  readonly availableText: string;
  readonly currency: string;
  readonly invalid: boolean;
  readonly disabled?: boolean;
  readonly name?: string;
}

export function AmountField(p: AmountFieldProps) {
  const ccy = p.currency;
  const availableText = p.availableText;
  return (
    <div className={css.field}>
      <label htmlFor={`${p.id}-amount`}>
        <Trans>Amount</Trans>
      </label>
      <div className={css.amountRow}>
        <input
          id={`${p.id}-amount`}
          className={`${css.input} ${css.amountInput}`}
          name={p.name}
          inputMode="decimal"
          autoComplete="off"
          value={p.value}
          disabled={p.disabled}
          aria-invalid={p.invalid}
          aria-describedby={`${p.id}-available${p.invalid ? ` ${p.id}-error` : ""}`}
          onChange={(e) => p.onChange(e.currentTarget.value)}
        />
        <button
          type="button"
          className={css.ghost}
          disabled={p.available <= 0 || p.disabled === true}
          onClick={() => p.onChange(p.max())}
        >
          <Trans>Max</Trans>
        </button>
      </div>
      <p className={css.hint} id={`${p.id}-available`}>
        <Trans>
          Available: {availableText} {ccy}
        </Trans>
      </p>
    </div>
  );
}
