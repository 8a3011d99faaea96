import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { validPositiveNumber, type Order, type OrderUpdate } from "../../../../protocol";
import { displayPair, formatAmount } from "./format";
import * as css from "./tables.css";

/** The numeric text a field starts from: the value without exponent form or trailing zeros. */
function initialText(value: number | null): string {
  return value === null ? "" : formatAmount(Math.abs(value), 12);
}

/**
 * Changes an open order's price and amount (`ou`). The amount is edited as a magnitude; the order's
 * side keeps its sign. Orders without a price (market, trailing) only change their amount.
 */
export function EditOrderPanel(props: {
  readonly order: Order;
  readonly onSubmit: (update: OrderUpdate) => Promise<boolean>;
  readonly onClose: () => void;
}) {
  const { t } = useLingui();
  const o = props.order;
  const [price, setPrice] = useState(initialText(o.price));
  const [amount, setAmount] = useState(initialText(o.amount));
  const [busy, setBusy] = useState(false);
  const hasPrice = o.price !== null;
  const priceOk = !hasPrice || validPositiveNumber(price, false);
  const amountOk = validPositiveNumber(amount, false);
  const id = o.id;
  const pair = displayPair(o.symbol);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!priceOk || !amountOk || busy) return;
    setBusy(true);
    const signed = o.amount < 0 || (o.amount === 0 && o.original_amount < 0) ? `-${amount.trim()}` : amount.trim();
    const update: OrderUpdate = hasPrice ? { id, price: price.trim(), amount: signed } : { id, amount: signed };
    const ok = await props.onSubmit(update);
    setBusy(false);
    if (ok) props.onClose();
  };

  return (
    <form
      className={css.panel}
      role="dialog"
      aria-label={t`Edit order ${id}`}
      data-testid="edit-order"
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        if (e.key === "Escape") props.onClose();
      }}
    >
      <strong>
        <Trans>
          Edit order {id} ({pair})
        </Trans>
      </strong>
      {hasPrice && (
        <label className={css.field}>
          <Trans>Price</Trans>
          <input
            className={css.input}
            inputMode="decimal"
            data-testid="edit-price"
            value={price}
            aria-invalid={!priceOk}
            autoFocus
            onChange={(e) => setPrice(e.currentTarget.value)}
          />
        </label>
      )}
      <label className={css.field}>
        <Trans>Amount</Trans>
        <input
          className={css.input}
          inputMode="decimal"
          data-testid="edit-amount"
          value={amount}
          aria-invalid={!amountOk}
          autoFocus={!hasPrice}
          onChange={(e) => setAmount(e.currentTarget.value)}
        />
      </label>
      <button type="submit" className={css.button.primary} disabled={!priceOk || !amountOk || busy}>
        <Trans>Save</Trans>
      </button>
      <button type="button" className={css.button.plain} onClick={props.onClose}>
        <Trans>Close</Trans>
      </button>
    </form>
  );
}
