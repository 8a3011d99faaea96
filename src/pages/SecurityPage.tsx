import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import {
  addKey,
  endOtherSessions,
  endSession,
  loginHistory,
  overview,
  removeKey,
  renameKey,
  sessions,
  totpChallenge,
  totpDisable,
  totpRegister,
  type LoginResult,
  type LoginRow,
  type Result,
  type SecurityError,
  type SecurityKey,
  type SecurityOverview,
  type SessionRow,
  type TotpChallenge,
} from "../ui/security/api";
import { FactorField, OwnerProofFields, PasswordField, useBusyAction } from "../ui/security/factor-parts";
import { QrCode } from "../ui/security/QrCode";
import { useApiErrorText } from "../ui/shell/api-error-text";
import { SecuritySettings } from "../ui/security/SecuritySettings";
import { PgpKey } from "../ui/security/PgpKey";
import { SmsCard } from "../ui/security/SmsCard";
import * as css from "./pages.css";
import * as sec from "./security.css";
import * as s from "./session.css";

/** The words for each refusal the security calls can meet. */
function useErrorText(): (e: SecurityError) => string | null {
  const { t } = useLingui();
  const appWide = useApiErrorText();
  return (e) => {
    switch (e) {
      case "password":
        return t`The password is not right.`;
      case "email-code":
        return t`The code from the e-mail is not right. Check the newest mail from us.`;
      case "code":
        return t`That code is not right. Enter the current 6-digit code from your authenticator app.`;
      case "too-many":
        return t`Too many wrong codes. Wait ten minutes, then try again.`;
      case "name":
        return t`Give the key a name of 1 to 40 characters.`;
      case "key":
        return t`The security key did not answer, or the exchange did not accept it. Try again, and touch the key when it blinks.`;
      case "key-exists":
        return t`This security key is registered already.`;
      case "session-gone":
        return t`That session has ended already.`;
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

function Alert({ error }: { readonly error: SecurityError | null }) {
  const text = useErrorText();
  const said = error === null ? null : text(error);
  if (said === null) return null;
  return (
    <p className={css.alert} role="alert">
      {said}
    </p>
  );
}

function useDate(): (mts: number) => string {
  const { i18n } = useLingui();
  return (mts) => i18n.date(new Date(mts), { dateStyle: "medium", timeStyle: "short" });
}

const digits = (v: string): string => v.replace(/\s+/g, "");

function TotpCard({ on, onChange }: { readonly on: boolean; readonly onChange: () => void }) {
  const { t } = useLingui();
  const [setup, setSetup] = useState<TotpChallenge | null>(null);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [emailCode, setEmailCode] = useState("");
  const [current, setCurrent] = useState("");
  const { busy, error, act, clear } = useBusyAction<SecurityError>();

  const start = async (): Promise<void> => {
    clear();
    const r = await totpChallenge();
    if (r.ok) {
      setSetup(r.value);
      setCode("");
      setPassword("");
      setEmailCode("");
      setCurrent("");
    } else await act(() => Promise.resolve(r));
  };

  const confirm = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!setup) return;
    const { ok } = await act(() =>
      totpRegister(
        setup.confirm === "otp"
          ? { token: digits(code), currentToken: digits(current) }
          : { token: digits(code), password, emailCode: digits(emailCode) },
      ),
    );
    if (ok) {
      setSetup(null);
      onChange();
    }
  };

  const disable = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if ((await act(() => totpDisable(digits(current)))).ok) {
      setCurrent("");
      onChange();
    }
  };

  return (
    <section className={sec.card} aria-labelledby="totp-title">
      <div className={sec.cardHead}>
        <h3 className={sec.h3} id="totp-title">
          <Trans>Authenticator app (TOTP)</Trans>
        </h3>
        <span className={on ? sec.badgeOn : sec.badgeOff} data-testid="totp-state">
          {on ? t`On` : t`Off`}
        </span>
      </div>
      <p className={s.hint}>
        <Trans>
          An app such as a password manager or an authenticator shows a new 6-digit code every 30 seconds. With it on,
          signing in asks for the code after your password.
        </Trans>
      </p>
      {setup ? (
        <form className={sec.setup} noValidate onSubmit={(e) => void confirm(e)} data-testid="totp-setup">
          <QrCode text={setup.otpauth} label={t`QR code to add this account to your authenticator app`} />
          <div className={css.form}>
            <p className={css.muted}>
              <Trans>Scan the code with your app, or type this key into it:</Trans>
            </p>
            <code className={sec.secret} data-testid="totp-secret">
              {setup.secret}
            </code>
            <FactorField
              label={<Trans>6-digit code from the app</Trans>}
              name="totp-code"
              code
              value={code}
              onChange={setCode}
            />
            {setup.confirm === "otp" ? (
              <FactorField
                label={<Trans>Current code from your old authenticator</Trans>}
                name="totp-current"
                code
                value={current}
                onChange={setCurrent}
              />
            ) : (
              <>
                <PasswordField name="totp-password" value={password} onChange={setPassword} />
                <FactorField
                  label={<Trans>Code from the e-mail we just sent</Trans>}
                  name="totp-email-code"
                  code
                  value={emailCode}
                  onChange={setEmailCode}
                />
              </>
            )}
            <Alert error={error} />
            <div className={css.actions}>
              <button type="submit" className={css.cta} disabled={busy}>
                {busy ? t`Checking…` : t`Turn on`}
              </button>
              <button type="button" className={s.linkButton} onClick={() => setSetup(null)}>
                <Trans>Cancel</Trans>
              </button>
            </div>
          </div>
        </form>
      ) : on ? (
        <form className={sec.row} noValidate onSubmit={(e) => void disable(e)} data-testid="totp-disable">
          <FactorField
            label={<Trans>Current code to turn it off</Trans>}
            name="totp-off-code"
            code
            value={current}
            onChange={setCurrent}
          />
          <button type="submit" className={sec.danger} disabled={busy}>
            <Trans>Turn off</Trans>
          </button>
          <button type="button" className={s.linkButton} onClick={() => void start()}>
            <Trans>Move to a new app</Trans>
          </button>
          <Alert error={error} />
        </form>
      ) : (
        <div className={css.actions}>
          <button type="button" className={css.cta} disabled={busy} onClick={() => void start()}>
            <Trans>Set up an authenticator app</Trans>
          </button>
          <Alert error={error} />
        </div>
      )}
    </section>
  );
}

function KeyItem({
  k,
  otp,
  onChange,
}: {
  readonly k: SecurityKey;
  readonly otp: boolean;
  readonly onChange: () => void;
}) {
  const { t } = useLingui();
  const date = useDate();
  const [mode, setMode] = useState<"view" | "rename" | "remove">("view");
  const [name, setName] = useState(k.name);
  const [password, setPassword] = useState("");
  const [current, setCurrent] = useState("");
  const { busy, error, act, clear } = useBusyAction<SecurityError>();
  const lastUsed = k.lastUsed;
  const added = date(k.created);
  const used = lastUsed === null ? null : date(lastUsed);
  const site = k.site;
  const keyName = k.name;

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const { ok } = await act(() =>
      mode === "rename" ? renameKey(k.id, name.trim()) : removeKey(k.id, password, otp ? digits(current) : undefined),
    );
    if (ok) {
      setMode("view");
      onChange();
    }
  };

  return (
    <li className={sec.item} data-testid="security-key">
      <div className={sec.itemHead}>
        <div>
          <strong>{k.name}</strong>
          <p className={s.hint}>
            {t`Added ${added} on ${site}`} · {used === null ? t`Not used yet` : t`Last used ${used}`}
          </p>
        </div>
        {mode === "view" && (
          <div className={css.actions}>
            <button
              type="button"
              className={s.linkButton}
              aria-label={t`Rename ${keyName}`}
              onClick={() => {
                clear();
                setName(k.name);
                setMode("rename");
              }}
            >
              <Trans>Rename</Trans>
            </button>
            <button
              type="button"
              className={s.linkButton}
              aria-label={t`Remove ${keyName}`}
              onClick={() => {
                clear();
                setMode("remove");
              }}
            >
              <Trans>Remove</Trans>
            </button>
          </div>
        )}
      </div>
      {mode !== "view" && (
        <form className={sec.row} noValidate onSubmit={(e) => void submit(e)}>
          {mode === "rename" ? (
            <FactorField label={<Trans>New name</Trans>} name="key-rename" value={name} onChange={setName} />
          ) : (
            <OwnerProofFields
              name="key-remove"
              otp={otp}
              password={password}
              onPassword={setPassword}
              current={current}
              onCurrent={setCurrent}
            />
          )}
          <button type="submit" className={mode === "remove" ? sec.danger : css.cta} disabled={busy}>
            {mode === "rename" ? t`Save name` : t`Remove key`}
          </button>
          <button type="button" className={s.linkButton} onClick={() => setMode("view")}>
            <Trans>Cancel</Trans>
          </button>
          <Alert error={error} />
        </form>
      )}
    </li>
  );
}

function KeysCard({ info, onChange }: { readonly info: SecurityOverview; readonly onChange: () => void }) {
  const { t } = useLingui();
  const otp = info.factors.includes("otp");
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [current, setCurrent] = useState("");
  const { busy, error, act, clear } = useBusyAction<SecurityError>();
  const supported = typeof window !== "undefined" && "PublicKeyCredential" in window;

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const { ok } = await act(() =>
      addKey({ name: name.trim(), password, ...(otp ? { currentToken: digits(current) } : {}) }),
    );
    if (ok) {
      setAdding(false);
      setName("");
      setPassword("");
      setCurrent("");
      onChange();
    }
  };

  return (
    <section className={sec.card} aria-labelledby="keys-title">
      <div className={sec.cardHead}>
        <h3 className={sec.h3} id="keys-title">
          <Trans>Security keys</Trans>
        </h3>
        <span className={info.keys.length > 0 ? sec.badgeOn : sec.badgeOff}>
          {info.keys.length > 0 ? t`On` : t`Off`}
        </span>
      </div>
      <p className={s.hint}>
        <Trans>
          A hardware key (FIDO2 / WebAuthn, the successor of U2F) confirms your sign-in with a touch. A key works on the
          site where you added it.
        </Trans>
      </p>
      {info.keys.length > 0 && (
        <ul className={sec.list} aria-label={t`Your security keys`}>
          {info.keys.map((k) => (
            <KeyItem key={k.id} k={k} otp={otp} onChange={onChange} />
          ))}
        </ul>
      )}
      {!supported ? (
        <p className={css.info}>
          <Trans>This browser cannot use security keys.</Trans>
        </p>
      ) : adding ? (
        <form className={css.form} noValidate onSubmit={(e) => void submit(e)} data-testid="key-add">
          <FactorField label={<Trans>Key name</Trans>} name="key-name" value={name} onChange={setName} />
          <OwnerProofFields
            name="key"
            otp={otp}
            password={password}
            onPassword={setPassword}
            current={current}
            onCurrent={setCurrent}
          />
          <Alert error={error} />
          <div className={css.actions}>
            <button type="submit" className={css.cta} disabled={busy}>
              {busy ? t`Touch your key…` : t`Register key`}
            </button>
            <button type="button" className={s.linkButton} onClick={() => setAdding(false)}>
              <Trans>Cancel</Trans>
            </button>
          </div>
        </form>
      ) : (
        <div className={css.actions}>
          <button
            type="button"
            className={css.cta}
            onClick={() => {
              clear();
              setAdding(true);
            }}
          >
            <Trans>Add a security key</Trans>
          </button>
        </div>
      )}
    </section>
  );
}

function SessionsCard({ rows, onChange }: { readonly rows: readonly SessionRow[]; readonly onChange: () => void }) {
  const { t } = useLingui();
  const date = useDate();
  const { busy, error, act } = useBusyAction<SecurityError>();
  const others = rows.filter((r) => !r.current).length;
  const end = async (run: () => Promise<Result<unknown>>): Promise<void> => {
    await act(run);
    onChange();
  };
  return (
    <section className={sec.card} aria-labelledby="sessions-title">
      <div className={sec.cardHead}>
        <h3 className={sec.h3} id="sessions-title">
          <Trans>Active sessions</Trans>
        </h3>
        <button
          type="button"
          className={sec.danger}
          disabled={busy || others === 0}
          onClick={() => void end(endOtherSessions)}
        >
          <Trans>Sign out everywhere else</Trans>
        </button>
      </div>
      <div className={sec.scroll} role="region" aria-label={t`Active sessions`} tabIndex={0}>
        <table className={sec.table} data-testid="sessions">
          <thead>
            <tr>
              <th className={sec.th} scope="col">
                <Trans>Device</Trans>
              </th>
              <th className={sec.th} scope="col">
                <Trans>Address</Trans>
              </th>
              <th className={sec.th} scope="col">
                <Trans>Signed in</Trans>
              </th>
              <th className={sec.th} scope="col">
                <Trans>Last active</Trans>
              </th>
              <th className={sec.th} scope="col">
                <Trans>Action</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid="session-row">
                <td className={sec.td}>
                  <div className={sec.agent} title={r.agent}>
                    {r.agent === "" ? t`Unknown device` : r.agent}
                  </div>
                </td>
                <td className={sec.td}>{r.address ?? "—"}</td>
                <td className={sec.td}>{date(r.created)}</td>
                <td className={sec.td}>{date(r.lastSeen)}</td>
                <td className={sec.td}>
                  {r.current ? (
                    <span className={sec.current}>
                      <Trans>This session</Trans>
                    </span>
                  ) : (
                    <button
                      type="button"
                      className={s.linkButton}
                      disabled={busy}
                      onClick={() => void end(() => endSession(r.id))}
                    >
                      <Trans>Sign out</Trans>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Alert error={error} />
    </section>
  );
}

function HistoryCard({ rows }: { readonly rows: readonly LoginRow[] }) {
  const { t } = useLingui();
  const date = useDate();
  const outcome: Record<LoginResult, string> = {
    "signed-in": t`Signed in`,
    password: t`Wrong password`,
    otp: t`Wrong authenticator code`,
    key: t`Security key refused`,
    sms: t`Wrong text-message code`,
  };
  return (
    <section className={sec.card} aria-labelledby="history-title">
      <h3 className={sec.h3} id="history-title">
        <Trans>Sign-in history</Trans>
      </h3>
      {rows.length === 0 ? (
        <p className={css.muted}>
          <Trans>No sign-ins recorded yet.</Trans>
        </p>
      ) : (
        <div className={sec.scroll} role="region" aria-label={t`Sign-in history`} tabIndex={0}>
          <table className={sec.table} data-testid="login-history">
            <thead>
              <tr>
                <th className={sec.th} scope="col">
                  <Trans>Time</Trans>
                </th>
                <th className={sec.th} scope="col">
                  <Trans>Result</Trans>
                </th>
                <th className={sec.th} scope="col">
                  <Trans>Address</Trans>
                </th>
                <th className={sec.th} scope="col">
                  <Trans>Device</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td className={sec.td}>{date(r.mts)}</td>
                  <td className={`${sec.td} ${r.outcome === "signed-in" ? "" : sec.failed}`}>{outcome[r.outcome]}</td>
                  <td className={sec.td}>{r.address ?? "—"}</td>
                  <td className={sec.td}>
                    <div className={sec.agent} title={r.agent}>
                      {r.agent === "" ? t`Unknown device` : r.agent}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

interface Loaded {
  readonly info: SecurityOverview;
  readonly sessions: readonly SessionRow[];
  readonly history: readonly LoginRow[];
}

/** Everything the page shows, or why it could not be read. */
async function fetchAll(): Promise<Loaded | SecurityError> {
  const [info, list, hist] = await Promise.all([overview(), sessions(), loginHistory()]);
  if (!info.ok) return info.error;
  if (!list.ok) return list.error;
  if (!hist.ok) return hist.error;
  return { info: info.value, sessions: list.value, history: hist.value };
}

/**
 * The account's security page (/security): two-factor sign-in (an authenticator app, hardware
 * keys), the active sessions with "sign out everywhere else", and the sign-in history
 * (docs/product-rules.md#account-security).
 */
export function SecurityPage() {
  const [data, setData] = useState<Loaded | null>(null);
  const [error, setError] = useState<SecurityError | null>(null);

  const apply = useCallback((r: Loaded | SecurityError): void => {
    if (typeof r === "string") setError(r);
    else {
      setData(r);
      setError(null);
    }
  }, []);

  useEffect(() => {
    let live = true;
    void fetchAll().then((r) => {
      if (live) apply(r);
    });
    return () => {
      live = false;
    };
  }, [apply]);

  const reload = (): void => void fetchAll().then(apply);

  return (
    <section className={sec.page}>
      <h1 className={css.h1}>
        <Trans>Security</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>How your account signs in, where it is signed in now, and every recent attempt.</Trans>
      </p>
      <Alert error={error} />
      {data === null ? (
        error === null && (
          <p className={css.muted} role="status">
            <Trans>Loading…</Trans>
          </p>
        )
      ) : (
        <>
          <h2 className={css.h2}>
            <Trans>Two-factor authentication</Trans>
          </h2>
          <TotpCard on={data.info.factors.includes("otp")} onChange={reload} />
          <KeysCard info={data.info} onChange={reload} />
          <SmsCard otp={data.info.factors.includes("otp")} onChange={reload} />
          <PgpKey />
          <h2 className={css.h2}>
            <Trans>Where you are signed in</Trans>
          </h2>
          <SessionsCard rows={data.sessions} onChange={reload} />
          <HistoryCard rows={data.history} />
          <SecuritySettings />
        </>
      )}
    </section>
  );
}
