import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import type { NotificationPrefKey } from "../../protocol";
import { settings } from "../settings/store";
import type { AuthCall, NotificationsError } from "./api";
import * as css from "./notifications.css";
import { pullNotificationPrefs, setNotificationPref } from "./prefs";
import { useNotificationWords } from "./words";

function Toggle({
  name,
  label,
  busy,
  onChange,
}: {
  readonly name: NotificationPrefKey;
  readonly label: ReactNode;
  readonly busy: boolean;
  readonly onChange: (key: NotificationPrefKey, on: boolean) => void;
}) {
  const s = useSnapshot(settings);
  return (
    <label className={css.check}>
      <input
        type="checkbox"
        data-testid={`pref-${name}`}
        checked={s[name]}
        disabled={busy}
        onChange={(e) => onChange(name, e.target.checked)}
      />
      {label}
    </label>
  );
}

/**
 * The in-app and e-mail preferences: the exchange's stored copy is loaded first (it wins over this
 * device's), and every change is saved at once (src/ui/notifications/prefs.ts).
 */
export function NotificationPrefs({ call }: { readonly call: AuthCall }) {
  const { t } = useLingui();
  const words = useNotificationWords();
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState<NotificationPrefKey | null>(null);
  const [error, setError] = useState<NotificationsError | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    let live = true;
    void pullNotificationPrefs(call).then((r) => {
      if (!live) return;
      setLoaded(true);
      if (!r.ok) setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [call]);

  const change = (key: NotificationPrefKey, on: boolean): void => {
    setSaving(key);
    setError(null);
    setSaved(false);
    void setNotificationPref(call, key, on).then((r) => {
      setSaving(null);
      if (r.ok) setSaved(true);
      else setError(r.error);
    });
  };
  const errorText = error ? words.error(error) : null;
  const busy = !loaded || saving !== null;

  return (
    <section className={css.card} aria-labelledby="prefs-title" data-testid="notification-prefs">
      <h2 id="prefs-title" className={css.h2}>
        <Trans>Preferences</Trans>
      </h2>
      <div className={css.columns}>
        <fieldset className={css.fieldset}>
          <legend className={css.legend}>
            <Trans>On this site</Trans>
          </legend>
          <Toggle name="notify_main" busy={busy} onChange={change} label={t`General notices (alerts, connection)`} />
          <Toggle name="notify_orders" busy={busy} onChange={change} label={t`Orders`} />
          <Toggle name="notify_trades" busy={busy} onChange={change} label={t`Trades`} />
          <Toggle name="notify_funding" busy={busy} onChange={change} label={t`Funding`} />
          <Toggle name="sound_notices" busy={busy} onChange={change} label={t`Play a sound`} />
        </fieldset>
        <fieldset className={css.fieldset}>
          <legend className={css.legend}>
            <Trans>By e-mail</Trans>
          </legend>
          <Toggle
            name="email_withdrawal_completed"
            busy={busy}
            onChange={change}
            label={t`A withdrawal is completed`}
          />
          <Toggle name="email_deposit_arrived" busy={busy} onChange={change} label={t`A deposit arrives`} />
          <Toggle name="email_deposit_completed" busy={busy} onChange={change} label={t`A deposit is credited`} />
          <p className={css.muted}>
            <Trans>
              Security e-mails (sign-ins, password and two-factor changes, API keys, freezing the account) are always
              sent.
            </Trans>
          </p>
        </fieldset>
      </div>
      <div aria-live="polite">
        {errorText !== null && (
          <p className={css.error} role="alert">
            {errorText}
          </p>
        )}
        {saved && error === null && (
          <p className={css.success} data-testid="prefs-saved">
            <Trans>Saved. Your choices apply on every device you sign in on.</Trans>
          </p>
        )}
      </div>
    </section>
  );
}
