/**
 * What the SMS and PGP key cards share: the words for each refusal, a labelled field, a call run
 * with a busy flag, and the resend countdown (its one-second tick from the app's scheduler).
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { appScheduler } from "../scheduler";
import { useApiErrorText } from "../shell/api-error-text";
import type { FactorError } from "./factor-api";
import * as css from "./factors.css";

function useErrorText(): (e: FactorError) => string | null {
  const { t } = useLingui();
  const appWide = useApiErrorText();
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
      case "rate-limited":
      case "maintenance":
        return appWide(e);
      default: {
        const never: never = e;
        return never;
      }
    }
  };
}

export function FactorAlert({ error }: { readonly error: FactorError | null }) {
  const text = useErrorText();
  const said = error === null ? null : text(error);
  if (said === null) return null;
  return (
    <p className={css.alert} role="alert">
      {said}
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

/** What a call of the security area ends with: done, or a refusal the page words. */
type Outcome<E> = { readonly ok: true } | { readonly ok: false; readonly error: E };

/**
 * Runs a call with a busy flag and keeps the refusal it ended with (null: none), for the security
 * page's cards (their errors) and the SMS and PGP cards (FactorError).
 */
export function useBusyAction<E>(): {
  readonly busy: boolean;
  readonly error: E | null;
  readonly act: <R extends Outcome<E>>(run: () => Promise<R>) => Promise<R>;
  readonly clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<E | null>(null);
  const act = useCallback(async <R extends Outcome<E>>(run: () => Promise<R>): Promise<R> => {
    setBusy(true);
    setError(null);
    try {
      const r = await run();
      const outcome: Outcome<E> = r;
      if (!outcome.ok) setError(outcome.error);
      return r;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(null), []);
  return { busy, error, act, clear };
}

export const useFactorAction = (): ReturnType<typeof useBusyAction<FactorError>> => useBusyAction<FactorError>();

/** The account password, as every owner proof asks for it. */
export function PasswordField(props: {
  readonly name: string;
  readonly value: string;
  readonly onChange: (v: string) => void;
}) {
  return (
    <FactorField
      label={<Trans>Password</Trans>}
      name={props.name}
      type="password"
      autoComplete="current-password"
      value={props.value}
      onChange={props.onChange}
    />
  );
}

/**
 * The proof a change to the account's protection asks for (docs/product-rules.md#account-security):
 * the password and, when the account has an authenticator app, its current code.
 */
export function OwnerProofFields(props: {
  /** The fields' names: `{name}-password`, `{name}-totp`. */
  readonly name: string;
  readonly otp: boolean;
  readonly password: string;
  readonly onPassword: (v: string) => void;
  readonly current: string;
  readonly onCurrent: (v: string) => void;
}) {
  return (
    <>
      <PasswordField name={`${props.name}-password`} value={props.password} onChange={props.onPassword} />
      {props.otp && (
        <FactorField
          label={<Trans>Current code from your authenticator app</Trans>}
          name={`${props.name}-totp`}
          code
          value={props.current}
          onChange={props.onCurrent}
        />
      )}
    </>
  );
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
