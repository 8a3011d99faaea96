import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import { agreementOf, currencyTicker } from "../../protocol";
import { Modal } from "../api-keys";
import type { ConversionError } from "./api";
import * as css from "./conversions.css";
import { useConversionWords } from "./words";

/**
 * The currency-agreement dialog (docs/product-rules.md#currency-agreements): the terms' summary
 * and version, "I have read and agree", Accept (only once ticked) and Cancel. A modal dialog over
 * the conversion dialog (the native `<dialog>`: focus stays inside, Escape cancels).
 */
export function AgreementDialog({
  currency,
  accepting,
  error,
  onAccept,
  onCancel,
}: {
  /** The currency whose terms are asked for; null when the dialog is closed. */
  readonly currency: string | null;
  readonly accepting: boolean;
  readonly error: ConversionError | null;
  readonly onAccept: () => void;
  readonly onCancel: () => void;
}) {
  const words = useConversionWords();
  const agreement = currency === null ? null : agreementOf(currency);
  const text = agreement === null ? null : words.agreement(agreement.textId);
  return (
    <Modal open={currency !== null} title={text?.title ?? currency ?? ""} onClose={onCancel} testId="agreement-dialog">
      {currency !== null && agreement !== null && text !== null && (
        <AgreementBody
          // A fresh tick box for each currency asked about.
          key={currency}
          currency={currencyTicker(currency)}
          version={agreement.version}
          summary={text.summary}
          accepting={accepting}
          error={error}
          onAccept={onAccept}
          onCancel={onCancel}
        />
      )}
    </Modal>
  );
}

function AgreementBody({
  currency,
  version,
  summary,
  accepting,
  error,
  onAccept,
  onCancel,
}: {
  readonly currency: string;
  readonly version: string;
  readonly summary: readonly string[];
  readonly accepting: boolean;
  readonly error: ConversionError | null;
  readonly onAccept: () => void;
  readonly onCancel: () => void;
}) {
  const { t } = useLingui();
  const words = useConversionWords();
  const id = useId();
  const [agreed, setAgreed] = useState(false);
  return (
    <form
      className={css.form}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (agreed) onAccept();
      }}
    >
      <p className={css.hint}>
        <Trans>
          To convert into or out of {currency}, read and accept its terms first. Version {version}.
        </Trans>
      </p>
      <section className={css.terms} id={`${id}-terms`} tabIndex={0} aria-label={t`Summary of the terms`}>
        {summary.map((p) => (
          <p key={p} className={css.termsText}>
            {p}
          </p>
        ))}
      </section>
      <label className={css.agree}>
        <input
          type="checkbox"
          className={css.checkbox}
          checked={agreed}
          disabled={accepting}
          aria-describedby={`${id}-terms`}
          onChange={(e) => setAgreed(e.currentTarget.checked)}
        />
        <Trans>I have read and agree</Trans>
      </label>
      {error && (
        <p className={css.alert} role="alert">
          {words.error(error, currency)}
        </p>
      )}
      {accepting && (
        <p className={css.hint} role="status">
          <Trans>Saving your acceptance…</Trans>
        </p>
      )}
      <div className={css.actions}>
        <button type="button" className={css.ghost} onClick={onCancel} disabled={accepting}>
          <Trans>Cancel</Trans>
        </button>
        <button type="submit" className={css.button} disabled={!agreed || accepting}>
          <Trans>Accept</Trans>
        </button>
      </div>
    </form>
  );
}
