import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { parseSymbol, validPositiveNumber, type Position } from "../../../../protocol";
import { notify } from "../../notices";
import { collateralLimits, setCollateral, type CollateralLimits, type CollateralRefusal } from "./collateral";
import { displayPair, formatAmount } from "./format";
import { usePositionServices } from "./position-actions";
import * as css from "./tables.css";

/**
 * Sets a derivatives position's collateral (`w/deriv/collateral/set`) within the room the exchange
 * reports (`calc/deriv/collateral/limits`), checked before it is sent; a refusal stays in the panel
 * in the user's words, a success closes it and is told as an `orders` notice.
 */
export function CollateralPanel(props: { readonly position: Position; readonly onClose: () => void }) {
  const { t } = useLingui();
  const services = usePositionServices();
  const p = props.position;
  const pair = displayPair(p.pair);
  const parsed = parseSymbol(p.pair);
  const quote = parsed?.kind === "trading" ? parsed.quote : "";
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [limits, setLimits] = useState<CollateralLimits | null>(null);
  const [amount, setAmount] = useState(p.collateral === null ? "" : formatAmount(p.collateral));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    input.current?.focus();
    let live = true;
    void collateralLimits(services.call, p.pair).then((l) => {
      if (live) setLimits(l);
    });
    return () => {
      live = false;
    };
  }, [services, p.pair]);

  // The exchange's limits when it answered, else the position record's minimum.
  const min = limits?.min ?? p.minCollateral;
  const max = limits?.max ?? null;
  const minText = min === null ? "–" : `${formatAmount(min)} ${quote}`;
  const maxText = max === null ? "–" : `${formatAmount(max)} ${quote}`;

  const refusalText = (r: CollateralRefusal): string => {
    switch (r.kind) {
      case "min":
        return t`Below the minimum of ${minText}.`;
      case "max":
        return t`Not enough in your derivatives wallet.`;
      case "no-position":
        return t`This position is closed.`;
      case "unreachable":
        return t`The exchange could not be reached. Try again.`;
      case "other":
        return r.text;
      default: {
        const never: never = r;
        return never;
      }
    }
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (busy) return;
    const text = amount.trim();
    if (!validPositiveNumber(text, false)) return setError(t`Enter an amount above zero.`);
    const value = Number(text);
    if (min !== null && value < min) return setError(t`Below the minimum of ${minText}.`);
    if (max !== null && value > max) return setError(t`At most ${maxText}.`);
    setBusy(true);
    const refused = await setCollateral(services.call, p.pair, value);
    setBusy(false);
    if (refused !== null) return setError(refusalText(refused));
    const shown = `${formatAmount(value)} ${quote}`;
    notify({ level: "success", kind: "orders", text: t`Position ${pair}: collateral set to ${shown}` });
    props.onClose();
  };

  return (
    <form
      className={css.panel}
      role="dialog"
      aria-label={t`Collateral of ${pair}`}
      data-testid="collateral-panel"
      noValidate
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        if (e.key === "Escape") props.onClose();
      }}
    >
      <strong>
        <Trans>Collateral of {pair}</Trans>
      </strong>
      <label className={css.field}>
        <Trans>Collateral ({quote})</Trans>
        <input
          ref={input}
          className={css.input}
          inputMode="decimal"
          data-testid="collateral-amount"
          value={amount}
          aria-invalid={error !== null}
          aria-describedby={hintId}
          onChange={(e) => {
            setAmount(e.currentTarget.value);
            setError(null);
          }}
        />
      </label>
      <span id={hintId} className={css.muted}>
        <Trans>
          Min {minText} · Max {maxText}
        </Trans>
      </span>
      <button type="submit" className={css.button.primary} disabled={busy}>
        <Trans>Set</Trans>
      </button>
      <button type="button" className={css.button.plain} onClick={props.onClose}>
        <Trans>Close</Trans>
      </button>
      {error !== null && (
        <span className={css.error} role="alert" data-testid="collateral-error">
          {error}
        </span>
      )}
    </form>
  );
}
