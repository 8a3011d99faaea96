import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import { sendWithdrawSms, type WithdrawError, type WithdrawTarget } from "./withdraw-api";
import * as x from "./withdrawals.css";

/** The authenticator's code, or the texted code with its button (the code is texted for `target`). */
export function SecondFactorField({
  factor,
  target,
  code,
  problem,
  onCode,
  onSmsError,
}: {
  readonly factor: "otp" | "sms";
  readonly target: WithdrawTarget;
  readonly code: string;
  readonly problem: string | null;
  readonly onCode: (v: string) => void;
  readonly onSmsError: (e: WithdrawError | null) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const [texted, setTexted] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = async (): Promise<void> => {
    setSending(true);
    onSmsError(null);
    const r = await sendWithdrawSms(target);
    setSending(false);
    if (r.ok) setTexted(r.value.phone);
    else onSmsError(r.error);
  };
  const phone = texted ?? "";
  return (
    <div className={x.field}>
      <label htmlFor={`${id}-code`}>
        {factor === "otp" ? <Trans>Authenticator code</Trans> : <Trans>Code from the text message</Trans>}
      </label>
      <div className={x.inputRow}>
        <input
          id={`${id}-code`}
          className={`${x.input} ${x.grow}`}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          spellCheck={false}
          value={code}
          aria-invalid={problem !== null}
          aria-describedby={`${id}-code-error`}
          onChange={(e) => onCode(e.currentTarget.value.replace(/\s+/g, ""))}
        />
        {factor === "sms" && (
          <button type="button" className={x.ghost} disabled={sending} onClick={() => void send()}>
            {texted === null ? t`Text me a code` : t`Send the code again`}
          </button>
        )}
      </div>
      {texted !== null && (
        <p className={x.hint} role="status">
          <Trans>We texted a code to {phone}.</Trans>
        </p>
      )}
      <p id={`${id}-code-error`} className={x.problem}>
        {problem ?? ""}
      </p>
    </div>
  );
}
