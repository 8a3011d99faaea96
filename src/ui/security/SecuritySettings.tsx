import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useId, useState, type ReactNode } from "react";
import { ipLockList, parseIpLock, settingOn, type SecurityChangeName } from "../../protocol";
import { browserIsIp } from "./ip-check";
import * as css from "./security-settings.css";
import {
  cancelPendingChange,
  changeSecuritySetting,
  readSecuritySettings,
  type SettingsError,
  type SettingsView,
} from "./settings-api";

/** The stored value that shows a switch as `on` (single login is on at a stored "0"). */
const storedFor = (name: SecurityChangeName, on: boolean): string =>
  name === "nosinglelogin" ? (on ? "0" : "1") : on ? "1" : "0";

/** Each setting's name as the pages show it (the security page, the mailed change's page). */
export function useSettingLabels(): Readonly<Record<SecurityChangeName, string>> {
  const { t } = useLingui();
  return {
    nosinglelogin: t`Single login`,
    email_on_login: t`E-mail me on every sign-in`,
    lock_on_new_ip: t`Confirm sign-ins from new addresses`,
    keep_session_alive: t`Keep sessions alive`,
    two_fa_fallback: t`Two-factor fallback`,
    no_enforce_withdrawal_check: t`Skip the withdrawal e-mail confirmation`,
    ip_lock: t`Sign-in address lock`,
  };
}

/** A stored value as the pages say it: on or off, or the address lock's list. */
export function useSettingValueText(): (name: SecurityChangeName, value: string) => string {
  const { t } = useLingui();
  return (name, value) =>
    name === "ip_lock" && settingOn(name, value)
      ? ipLockList(value).join(", ")
      : settingOn(name, value)
        ? t`On`
        : t`Off`;
}

/** The words for each refusal of a settings call. */
export function useSettingsErrorText(): (e: SettingsError) => string {
  const { t } = useLingui();
  return (e) => {
    switch (e.kind) {
      case "invalid-address": {
        const entry = e.entry;
        return t`"${entry}" is not an IPv4 or IPv6 address. Enter single addresses, without ranges.`;
      }
      case "too-many":
        return t`The list holds at most 20 addresses.`;
      case "empty":
        return t`Enter at least one address, or turn the lock off.`;
      case "own-address":
        return t`Keep the address you are using now on the list, or this session would be locked out.`;
      case "value":
        return t`The exchange did not accept that value.`;
      case "no-pending":
        return t`That change is no longer waiting: it was confirmed, cancelled or has expired.`;
      case "invalid-token":
        return t`This link does not work any more.`;
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

/** One switch with its explanation, and the change waiting for the owner's mail if there is one. */
function SwitchRow(props: {
  readonly name: SecurityChangeName;
  readonly view: SettingsView;
  readonly label: ReactNode;
  readonly help: ReactNode;
  readonly busy: boolean;
  readonly onChange: (name: SecurityChangeName, val: string) => void;
  readonly onCancel: (name: SecurityChangeName) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const { name, view } = props;
  const on = settingOn(name, view.settings[name]);
  const waiting = view.pending[name];
  return (
    <li className={css.row} data-setting={name}>
      <div className={css.rowText}>
        <label className={css.label} htmlFor={id}>
          {props.label}
        </label>
        <p className={css.muted} id={`${id}-help`}>
          {props.help}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className={css.toggle}
        checked={on}
        disabled={props.busy}
        aria-describedby={`${id}-help`}
        onChange={(e) => props.onChange(name, storedFor(name, e.target.checked))}
      />
      {waiting && (
        <div className={css.pending} data-testid={`pending-${name}`}>
          <span>
            {settingOn(name, waiting.val)
              ? t`Waiting for your confirmation by e-mail: turns on.`
              : t`Waiting for your confirmation by e-mail: turns off.`}
          </span>
          <button type="button" className={css.button} disabled={props.busy} onClick={() => props.onCancel(name)}>
            <Trans>Cancel change</Trans>
          </button>
        </div>
      )}
    </li>
  );
}

/** The address lock: off, or a list of addresses; edited as text, checked as the exchange checks it. */
function IpLockEditor(props: {
  readonly view: SettingsView;
  readonly busy: boolean;
  readonly onChange: (name: SecurityChangeName, val: string) => void;
  readonly onCancel: (name: SecurityChangeName) => void;
}) {
  const { t } = useLingui();
  const errorText = useSettingsErrorText();
  const labels = useSettingLabels();
  const id = useId();
  const { view } = props;
  const stored = view.settings.ip_lock;
  const locked = settingOn("ip_lock", stored);
  const [text, setText] = useState(() => (locked ? ipLockList(stored) : view.address ? [view.address] : []).join("\n"));
  const [touched, setTouched] = useState(false);
  const parsed = parseIpLock(text, browserIsIp);
  // The same rules as the exchange's (src/protocol parseIpLock), and the caller's own address kept.
  const problem: SettingsError | null = !parsed.ok
    ? parsed.problem.kind === "invalid"
      ? { kind: "invalid-address", entry: parsed.problem.entry }
      : parsed.problem
    : view.address !== null && !parsed.list.includes(view.address)
      ? { kind: "own-address" }
      : null;
  const waiting = view.pending.ip_lock;
  const lockedList = ipLockList(stored).join(", ");
  const waitingList = waiting ? ipLockList(waiting.val).join(", ") : "";
  const currentAddress = view.address ?? "";
  const hasOwn = view.address !== null && parsed.ok && parsed.list.includes(view.address);

  function save(): void {
    setTouched(true);
    if (problem !== null || !parsed.ok) return;
    props.onChange("ip_lock", parsed.list.join(","));
  }

  return (
    <li className={css.rowStacked} data-setting="ip_lock">
      <div className={css.rowText}>
        <span className={css.label}>{labels.ip_lock}</span>
        <p className={css.muted}>
          {locked ? (
            <Trans>
              On: only these addresses may sign in or use a session: <span className={css.mono}>{lockedList}</span>
            </Trans>
          ) : (
            <Trans>Off: any address may sign in.</Trans>
          )}
        </p>
      </div>
      <div className={css.field}>
        <label htmlFor={id}>
          <Trans>Allowed addresses (IPv4 or IPv6), one per line</Trans>
        </label>
        <textarea
          id={id}
          name="ip-lock"
          className={css.textarea}
          value={text}
          spellCheck={false}
          aria-invalid={touched && problem !== null}
          aria-describedby={`${id}-error`}
          onChange={(e) => setText(e.target.value)}
        />
        <span className={css.fieldError} id={`${id}-error`}>
          {touched && problem !== null ? errorText(problem) : ""}
        </span>
        <div className={css.actions}>
          <button type="button" className={css.primary} disabled={props.busy} onClick={save}>
            {locked ? t`Save the list` : t`Turn the lock on`}
          </button>
          {view.address !== null && !hasOwn && (
            <button
              type="button"
              className={css.button}
              onClick={() => setText((v) => `${v.trim()}\n${view.address ?? ""}`.trim())}
            >
              <Trans>Add my current address ({currentAddress})</Trans>
            </button>
          )}
          {locked && (
            <button
              type="button"
              className={css.button}
              disabled={props.busy}
              onClick={() => props.onChange("ip_lock", "0")}
            >
              <Trans>Turn the lock off</Trans>
            </button>
          )}
        </div>
      </div>
      {waiting && (
        <div className={css.pending} data-testid="pending-ip_lock">
          <span>
            {waiting.val === "0"
              ? t`Waiting for your confirmation by e-mail: the lock turns off.`
              : t`Waiting for your confirmation by e-mail: the list becomes ${waitingList}.`}
          </span>
          <button type="button" className={css.button} disabled={props.busy} onClick={() => props.onCancel("ip_lock")}>
            <Trans>Cancel change</Trans>
          </button>
        </div>
      )}
    </li>
  );
}

/**
 * The security settings on the security page (docs/product-rules.md#account-security-settings):
 * switches, the address lock, and the changes waiting for the owner's mailed confirmation with
 * their cancel buttons. A change that loosens protection is only asked for here; the mailed link
 * applies it.
 */
export function SecuritySettings() {
  const { t } = useLingui();
  const errorText = useSettingsErrorText();
  const [view, setView] = useState<SettingsView | null>(null);
  const [error, setError] = useState<SettingsError | null>(null);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  // A new key per load: the address editor starts again from what is stored.
  const [generation, setGeneration] = useState(0);

  const load = useCallback(async (): Promise<void> => {
    const r = await readSecuritySettings();
    if (r.ok) {
      setView(r.value);
      setGeneration((g) => g + 1);
    } else setError(r.error);
  }, []);

  useEffect(() => {
    let live = true;
    void readSecuritySettings().then((r) => {
      if (!live) return;
      if (r.ok) setView(r.value);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, []);

  async function change(name: SecurityChangeName, val: string): Promise<void> {
    setBusy(true);
    setError(null);
    setNotice("");
    const r = await changeSecuritySetting(name, val);
    if (r.ok)
      setNotice(
        r.value === "pending"
          ? t`We sent you an e-mail. The change takes effect when you open its confirmation link.`
          : t`Saved.`,
      );
    else setError(r.error);
    await load();
    setBusy(false);
  }

  async function cancel(name: SecurityChangeName): Promise<void> {
    setBusy(true);
    setError(null);
    setNotice("");
    const r = await cancelPendingChange(name);
    if (r.ok) setNotice(t`The change was cancelled.`);
    else setError(r.error);
    await load();
    setBusy(false);
  }

  const labels = useSettingLabels();
  const rows: readonly [SecurityChangeName, ReactNode][] = [
    ["nosinglelogin", <Trans key="help">A new sign-in signs out every other session of the account.</Trans>],
    ["email_on_login", <Trans key="help">With the address, browser and time of the sign-in.</Trans>],
    [
      "lock_on_new_ip",
      <Trans key="help">A sign-in from an address the account never used waits for a link we e-mail you.</Trans>,
    ],
    [
      "keep_session_alive",
      <Trans key="help">
        On: a session lasts as long as the app keeps it open. Off: every session ends 12 hours after sign-in.
      </Trans>,
    ],
    [
      "two_fa_fallback",
      <Trans key="help">
        With more than one second factor, any of them may sign in. Off: only the first one (the authenticator app when
        you have it).
      </Trans>,
    ],
    [
      "no_enforce_withdrawal_check",
      <Trans key="help">
        Off: every withdrawal waits until you open the link we e-mail you. On: withdrawals leave without that step.
      </Trans>,
    ],
  ];

  return (
    <>
      <h2 className={css.h2} id="security-settings">
        <Trans>Security settings</Trans>
      </h2>
      <section className={css.card} aria-labelledby="security-settings" data-testid="security-settings">
        <p className={css.muted}>
          <Trans>
            Stronger settings apply at once. Weakening one, turning the address lock on or adding an address to it waits
            until you open the link we e-mail you, and the page shows it as waiting until then.
          </Trans>
        </p>
        {error !== null && (
          <p className={css.alert} role="alert">
            {errorText(error)}
          </p>
        )}
        <p className={css.status} role="status">
          {notice}
        </p>
        {view === null ? (
          error === null && (
            <p className={css.muted}>
              <Trans>Loading…</Trans>
            </p>
          )
        ) : (
          <ul className={css.list}>
            {rows.map(([name, help]) => (
              <SwitchRow
                key={name}
                name={name}
                view={view}
                label={labels[name]}
                help={help}
                busy={busy}
                onChange={(n, v) => void change(n, v)}
                onCancel={(n) => void cancel(n)}
              />
            ))}
            <IpLockEditor
              key={`ip-${generation}`}
              view={view}
              busy={busy}
              onChange={(n, v) => void change(n, v)}
              onCancel={(n) => void cancel(n)}
            />
          </ul>
        )}
      </section>
    </>
  );
}
