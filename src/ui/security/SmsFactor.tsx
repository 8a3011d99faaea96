/**
 * The security page's SMS card (docs/product-rules.md#account-security): a phone number checked by
 * its country's rules as it is typed, a texted code (with the resend countdown) and the password
 * to turn SMS on; a texted code and the password to turn it off.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useMemo, useState, type FormEvent } from "react";
import type { SmsState } from "../../protocol";
import { smsDisable, smsDisableSend, smsEnable, smsSend, smsState, type FactorError } from "./factor-api";
import {
  digitsOnly,
  FactorAlert,
  FactorField,
  OwnerProofFields,
  PasswordField,
  useFactorAction,
  useSecondsUntil,
} from "./factor-parts";
import * as css from "./factors.css";
import { phoneCountries, phoneE164 } from "./phone";

/** The country a phone number is first read in, from the app's locale (the person can change it). */
const LOCALE_COUNTRY: Readonly<Record<string, string>> = {
  en: "GB",
  ru: "RU",
  "zh-CN": "CN",
  "zh-TW": "TW",
  "es-EM": "ES",
  "tr-TR": "TR",
  "pt-BR": "BR",
};

/** Every country libphonenumber knows, named in the app's language, with its calling code. */
function useCountries(locale: string): { code: string; label: string }[] {
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale], { type: "region" });
    } catch {
      names = null;
    }
    return phoneCountries()
      .map((c) => ({ code: c.code, name: names?.of(c.code) ?? c.code, dial: c.dial }))
      .sort((a, b) => a.name.localeCompare(b.name, locale))
      .map((c) => ({ code: c.code, label: `${c.name} (+${c.dial})` }));
  }, [locale]);
}

/** The resend button: counts down to `at`, then sends again. */
function Resend({ at, busy, onSend }: { readonly at: number; readonly busy: boolean; readonly onSend: () => void }) {
  const { t } = useLingui();
  const seconds = useSecondsUntil(at);
  return (
    <button type="button" className={css.linkButton} disabled={busy || seconds > 0} onClick={onSend}>
      {seconds > 0 ? t`Send again in ${seconds} s` : t`Send the code again`}
    </button>
  );
}

export function SmsFactor({ otp, onChange }: { readonly otp: boolean; readonly onChange: () => void }) {
  const { t, i18n } = useLingui();
  const countries = useCountries(i18n.locale);
  const [state, setState] = useState<SmsState | null>(null);
  const [loadError, setLoadError] = useState<FactorError | null>(null);
  const [country, setCountry] = useState(() => LOCALE_COUNTRY[i18n.locale] ?? "GB");
  const [phone, setPhone] = useState("");
  const [touched, setTouched] = useState(false);
  // The number as sent, for "send again" (the exchange answers it masked).
  const [sentTo, setSentTo] = useState<{ phone: string; country: string } | null>(null);
  const [editing, setEditing] = useState(false);
  const [disabling, setDisabling] = useState<number | null>(null);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [current, setCurrent] = useState("");
  const [mailed, setMailed] = useState("");
  const { busy, error, act, clear } = useFactorAction();

  const apply = useCallback((r: Awaited<ReturnType<typeof smsState>>): void => {
    if (r.ok) {
      setState(r.value);
      setLoadError(null);
    } else setLoadError(r.error);
  }, []);
  const load = useCallback(async (): Promise<void> => apply(await smsState()), [apply]);

  useEffect(() => {
    let live = true;
    void smsState().then((r) => {
      if (live) apply(r);
    });
    return () => {
      live = false;
    };
  }, [apply]);

  const e164 = phoneE164(phone, country);
  const phoneInvalid = touched && e164 === null;

  const resetFields = (): void => {
    setCode("");
    setPassword("");
    setCurrent("");
    setMailed("");
  };

  const send = async (to: { phone: string; country: string }): Promise<void> => {
    const r = await act(() => smsSend(to.phone, to.country));
    if (r.ok) {
      setSentTo(to);
      setEditing(false);
      resetFields();
      await load();
    }
  };

  const submitPhone = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setTouched(true);
    if (e164 === null) return;
    await send({ phone, country });
  };

  const enable = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const r = await act(() =>
      smsEnable({
        code: digitsOnly(code),
        password,
        ...(otp ? { currentToken: digitsOnly(current) } : {}),
        ...(state?.emailCode ? { emailCode: digitsOnly(mailed) } : {}),
      }),
    );
    if (r.ok) {
      resetFields();
      setSentTo(null);
      await load();
      onChange();
    }
  };

  const askDisable = async (): Promise<void> => {
    const r = await act(smsDisableSend);
    if (r.ok) {
      resetFields();
      setDisabling(r.value.resendAt);
    }
  };

  const disable = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const r = await act(() => smsDisable(digitsOnly(code), password));
    if (r.ok) {
      resetFields();
      setDisabling(null);
      await load();
      onChange();
    }
  };

  const on = state?.enabled === true;
  const pendingPhone = state?.pendingPhone ?? null;
  const enabledPhone = state?.phone ?? "";
  // Where the last code went: the number SMS is on for, or the one being confirmed.
  const textedTo = on ? enabledPhone : (pendingPhone ?? "");

  const phoneForm = (
    <form className={css.wide} noValidate onSubmit={(e) => void submitPhone(e)} data-testid="sms-phone">
      <div className={css.phoneRow}>
        <label className={css.field}>
          <span>
            <Trans>Country</Trans>
          </span>
          <select
            className={css.input}
            name="sms-country"
            value={country}
            onChange={(e) => {
              setCountry(e.target.value);
              clear();
            }}
          >
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <FactorField
          label={<Trans>Mobile number</Trans>}
          name="sms-phone"
          type="tel"
          autoComplete="tel"
          value={phone}
          invalid={phoneInvalid}
          describedBy={phoneInvalid ? "sms-phone-error" : undefined}
          onChange={(v) => {
            setPhone(v);
            clear();
          }}
        />
      </div>
      {phoneInvalid && (
        <span className={css.fieldError} id="sms-phone-error">
          {phone.trim() === "" ? t`Enter your mobile number.` : t`This is not a valid number for the country chosen.`}
        </span>
      )}
      <FactorAlert error={error} />
      <div className={css.actions}>
        <button type="submit" className={css.cta} disabled={busy}>
          {busy ? t`Sending…` : t`Text me a code`}
        </button>
        {pendingPhone !== null && (
          <button type="button" className={css.linkButton} onClick={() => setEditing(false)}>
            <Trans>Cancel</Trans>
          </button>
        )}
      </div>
    </form>
  );

  let body;
  if (state === null) {
    body = loadError ? (
      <FactorAlert error={loadError} />
    ) : (
      <p className={css.hint} role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  } else if (on && disabling !== null) {
    body = (
      <form className={css.form} noValidate onSubmit={(e) => void disable(e)} data-testid="sms-disable">
        <p className={css.hint}>{t`We texted a code to ${textedTo}. It is good for 5 minutes.`}</p>
        <FactorField
          label={<Trans>Code from the text message</Trans>}
          name="sms-off-code"
          code
          value={code}
          onChange={setCode}
        />
        <PasswordField name="sms-off-password" value={password} onChange={setPassword} />
        <FactorAlert error={error} />
        <div className={css.actions}>
          <button type="submit" className={css.danger} disabled={busy}>
            <Trans>Turn off SMS</Trans>
          </button>
          <Resend at={disabling} busy={busy} onSend={() => void askDisable()} />
          <button type="button" className={css.linkButton} onClick={() => setDisabling(null)}>
            <Trans>Cancel</Trans>
          </button>
        </div>
      </form>
    );
  } else if (on) {
    body = (
      <div className={css.actions}>
        <p className={css.hint}>{t`Sign-in codes go to ${enabledPhone}.`}</p>
        <button type="button" className={css.danger} disabled={busy} onClick={() => void askDisable()}>
          <Trans>Turn off</Trans>
        </button>
        <FactorAlert error={error} />
      </div>
    );
  } else if (pendingPhone !== null && !editing) {
    body = (
      <form className={css.form} noValidate onSubmit={(e) => void enable(e)} data-testid="sms-confirm">
        <p className={css.hint} role="status">
          {t`We texted a code to ${textedTo}. It is good for 5 minutes.`}
        </p>
        <FactorField
          label={<Trans>Code from the text message</Trans>}
          name="sms-code"
          code
          value={code}
          onChange={setCode}
        />
        <OwnerProofFields
          name="sms"
          otp={otp}
          password={password}
          onPassword={setPassword}
          current={current}
          onCurrent={setCurrent}
        />
        {state.emailCode && (
          <>
            <p className={css.hint}>
              <Trans>
                Your account is protected by a security key, so we also e-mailed you a code. Enter it too: a text alone
                must not stand in for your key.
              </Trans>
            </p>
            <FactorField
              label={<Trans>Code from the e-mail</Trans>}
              name="sms-email-code"
              code
              value={mailed}
              onChange={setMailed}
            />
          </>
        )}
        <FactorAlert error={error} />
        <div className={css.actions}>
          <button type="submit" className={css.cta} disabled={busy}>
            {busy ? t`Checking…` : t`Turn on SMS`}
          </button>
          {sentTo !== null && <Resend at={state.resendAt} busy={busy} onSend={() => void send(sentTo)} />}
          <button
            type="button"
            className={css.linkButton}
            onClick={() => {
              clear();
              setEditing(true);
            }}
          >
            <Trans>Use another number</Trans>
          </button>
        </div>
      </form>
    );
  } else body = phoneForm;

  return (
    <section className={css.card} aria-labelledby="sms-title" data-testid="sms-card">
      <div className={css.head}>
        <h3 className={css.h3} id="sms-title">
          <Trans>Text message (SMS)</Trans>
        </h3>
        <span className={on ? css.badgeOn : css.badgeOff} data-testid="sms-state">
          {on ? t`On` : t`Off`}
        </span>
      </div>
      <p className={css.hint}>
        <Trans>
          A 6-digit code texted to your phone confirms your sign-in. Texts can be intercepted: an authenticator app or a
          security key is safer, and SMS is best as a fallback.
        </Trans>
      </p>
      {body}
    </section>
  );
}
