import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type FormEvent } from "react";
import { parseSymbol, validPositiveNumber, type Position, type PositionIncreaseInfo } from "../../../../protocol";
import { displayPair, formatAmount } from "./format";
import { increaseInfo, increasePosition, usePositionServices } from "./position-actions";
import * as css from "./tables.css";

/**
 * Adds to a margin position from the margin wallet's own funds (`w/position/increase`), in the
 * position's own direction: the amount is a magnitude, checked against the room the exchange
 * reports (`r/position/increase/info`) before it is sent; a refusal stays in the panel.
 */
export function IncreasePositionPanel(props: { readonly position: Position; readonly onClose: () => void }) {
  const { t, i18n } = useLingui();
  const services = usePositionServices();
  const p = props.position;
  const direction: 1 | -1 = p.amount < 0 ? -1 : 1;
  const pair = displayPair(p.pair);
  const parsed = parseSymbol(p.pair);
  const base = parsed?.kind === "trading" ? parsed.base : "";
  const [info, setInfo] = useState<PositionIncreaseInfo | null>(null);
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void increaseInfo(services, p.pair, direction).then((i) => {
      if (live) setInfo(i);
    });
    return () => {
      live = false;
    };
  }, [services, p.pair, direction]);

  const max = info?.maxPos ?? null;
  const maxText = max === null ? "–" : `${formatAmount(max)} ${base}`;

  /** The local checks: a positive decimal within the room; null when the amount may be sent. */
  const check = (text: string): string | null => {
    if (!validPositiveNumber(text, false)) return t`Enter an amount above zero.`;
    if (max !== null && Number(text) > max) return t`At most ${maxText} can be added.`;
    return null;
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (busy) return;
    const text = amount.trim();
    const local = check(text);
    setError(local);
    if (local !== null) return;
    setBusy(true);
    const refused = await increasePosition(i18n, services, p.pair, direction < 0 ? `-${text}` : text);
    setBusy(false);
    if (refused === null) props.onClose();
    else setError(refused);
  };

  return (
    <form
      className={css.panel}
      role="dialog"
      aria-label={t`Increase position ${pair}`}
      data-testid="increase-position"
      noValidate
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        if (e.key === "Escape") props.onClose();
      }}
    >
      <strong>
        <Trans>Increase position {pair}</Trans>
      </strong>
      <label className={css.field}>
        <Trans>Amount</Trans>
        <input
          className={css.input}
          inputMode="decimal"
          data-testid="increase-amount"
          value={amount}
          aria-invalid={error !== null}
          aria-describedby="increase-position-max"
          autoFocus
          onChange={(e) => {
            setAmount(e.currentTarget.value);
            setError(null);
          }}
        />
      </label>
      <span id="increase-position-max" className={css.muted}>
        <Trans>Max {maxText}</Trans>
      </span>
      <button type="submit" className={css.button.primary} disabled={busy} data-testid="increase-submit">
        <Trans>Increase</Trans>
      </button>
      <button type="button" className={css.button.plain} onClick={props.onClose}>
        <Trans>Close</Trans>
      </button>
      {error !== null && (
        <span className={css.error} role="alert" data-testid="increase-error">
          {error}
        </span>
      )}
    </form>
  );
}
