/**
 * What the SMS and PGP key cards share: the words for each refusal, a labelled field, a call run
 * with a busy flag, and the resend countdown (its one-second tick from the app's scheduler).
 */
import { useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { appScheduler } from "../scheduler";
import type { FactorError, FactorResult } from "./factor-api";
import * as css from "./factors.css";

function useErrorText(): (e: FactorError) => string {
  const { t } = useLingui();
  return (e) => {
    switch (e) {
      case "phone":
        return t`That is not a phone number of the country chosen. Check the number, or pick its country.`;
      case "password":
        return t`The password is not right.`;
      case "otp":
        return t`That code is not right. Enter the current 6-digit code from your authenticator app.`;
      case "code":
        return t`That code is not right. Enter the 6-digit code from the newest text message.`;
      case "code-expired":
        return t`That code has expired or was used already. Ask for a new one.`;
      case "too-many":
        return t`Too many wrong codes. Wait ten minutes, then try again.`;
      case "wait":
        return t`A code was sent a moment ago. Wait a minute before asking for another.`;
      case "texts":
        return t`Too many text messages this hour. Try again later.`;
      case "key-missing":
        return t`Paste your public key first.`;
      case "key-private":
        return t`This is a private key. Never share it: paste the public key instead.`;
      case "key-expired":
        return t`This key has expired. Extend it in your key tool, or paste another.`;
      case "key-revoked":
        return t`This key has been revoked. Paste a key that is in use.`;
      case "key-invalid":
        return t`This is not an OpenPGP public key. Paste the whole block, from BEGIN to END.`;
      case "key-no-encryption":
        return t`This key cannot encrypt: it has no valid encryption subkey.`;
      case "key-too-large":
        return t`This key is too large. Export only the public key you want to use.`;
      case "key-code":
        return t`That code is not right. Decrypt the newest mail from us and enter the code in it.`;
      case "key-nothing":
        return t`There is no key waiting for confirmation. Paste your key again.`;
      case "key-too-many":
        return t`Too many wrong codes. Wait an hour, then try again.`;
      case "email-code":
        return t`The code from the e-mail is not right. Check the newest mail from us.`;
      case "proof-locked":
        return t`Too many wrong passwords or codes. Wait ten minutes, then try again.`;
      case "key-pastes":
        return t`You added too many keys in the last hour. Wait, then try again.`;
      case "unreachable":
        return t`The exchange could not be reached. Check your connection, then try again.`;
      case "server":
        return t`The exchange had a problem answering. Try again in a moment.`;
      default: {
        const never: never = e;
        return never;
      }
    }
  };
}

export function FactorAlert({ error }: { readonly error: FactorError | null }) {
  const text = useErrorText();
  if (error === null) return null;
  return (
    <p className={css.alert} role="alert">
      {text(error)}
    </p>
  );
}

/** A labelled text field; `code` makes it a one-time-code field of six digits. */
export function FactorField(props: {
  readonly label: ReactNode;
  readonly name: string;
  readonly value: string;
  readonly onChange: (v: string) => void;
  readonly type?: "text" | "password" | "tel";
  readonly code?: boolean;
  readonly autoComplete?: string;
  readonly invalid?: boolean;
  readonly describedBy?: string | undefined;
}) {
  return (
    <label className={css.field}>
      <span>{props.label}</span>
      <input
        className={css.input}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value}
        autoComplete={props.autoComplete ?? (props.code ? "one-time-code" : "off")}
        aria-invalid={props.invalid === true}
        {...(props.describedBy ? { "aria-describedby": props.describedBy } : {})}
        {...(props.code ? { inputMode: "numeric" as const, maxLength: 7, spellCheck: false } : {})}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}

/** Runs a call with a busy flag; the error it ended with (null: none). */
export function useFactorAction(): {
  readonly busy: boolean;
  readonly error: FactorError | null;
  readonly act: <T>(run: () => Promise<FactorResult<T>>) => Promise<FactorResult<T>>;
  readonly clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FactorError | null>(null);
  const act = useCallback(async <T,>(run: () => Promise<FactorResult<T>>): Promise<FactorResult<T>> => {
    setBusy(true);
    setError(null);
    try {
      const r = await run();
      if (!r.ok) setError(r.error);
      return r;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(null), []);
  return { busy, error, act, clear };
}

/** Whole seconds until `at` (ms since the epoch), ticking each second while above 0. */
export function useSecondsUntil(at: number): number {
  // The tick only re-renders; the seconds are read from the clock at each render.
  const [, setTick] = useState(0);
  useEffect(() => {
    if (at <= appScheduler.now()) return;
    const cancel = appScheduler.every(1000, () => {
      setTick((n) => n + 1);
      if (at <= appScheduler.now()) cancel();
    });
    return cancel;
  }, [at]);
  return Math.max(0, Math.ceil((at - appScheduler.now()) / 1000));
}

export const digitsOnly = (v: string): string => v.replace(/\s+/g, "");
