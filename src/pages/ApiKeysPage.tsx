import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { useSnapshot } from "valtio";
import { auth } from "../ui/auth";
import {
  apiKeysCss as css,
  ApiKeysModel,
  emptyMatrix,
  KEY_SCOPES,
  KeyFormFields,
  MANAGE_NEEDS,
  missingPermissions,
  Modal,
  SCOPE_LABELS,
  type CallError,
  type FormErrors,
  type KeyForm,
  type KeyView,
} from "../ui/api-keys";
import { intlTag } from "../ui/i18n";
import { authCall } from "../ui/session";
import { settings } from "../ui/settings/store";
import { useApiErrorText } from "../ui/shell/api-error-text";
import * as pages from "./pages.css";

const EMPTY_FORM: KeyForm = { label: "", matrix: emptyMatrix(), ips: "" };

/** What a failed call says beside the form, or null when the app already says it (429, forced logout). */
function useCallErrorText(): (e: CallError) => string | null {
  const { t } = useLingui();
  const appText = useApiErrorText();
  return (e) => {
    switch (e.kind) {
      case "field":
        return t`Check the fields marked above.`;
      case "code":
        return t`That code is not right. Enter the 6 digits of the newest code.`;
      case "expired":
        return t`This request has expired or took too many wrong codes. Create the key again.`;
      case "too-many-keys":
        return t`This account has the most keys allowed. Revoke one first.`;
      case "too-many-pending":
        return t`Several keys are waiting for their codes. Confirm those, or wait ten minutes.`;
      case "key-gone":
        return t`That key no longer exists. The list has been refreshed.`;
      case "app":
        return appText(e.app);
      default: {
        const never: never = e;
        return never;
      }
    }
  };
}

function fieldErrors(e: CallError | null): FormErrors {
  return e?.kind === "field" ? e.errors : {};
}

function KeyCard({
  k,
  onEdit,
  onRevoke,
}: {
  readonly k: KeyView;
  readonly onEdit: () => void;
  readonly onRevoke: () => void;
}) {
  const { t, i18n } = useLingui();
  const s = useSnapshot(settings);
  const granted = KEY_SCOPES.filter((scope) => k.matrix[scope].read);
  const created =
    k.mtsCreate === null
      ? null
      : new Intl.DateTimeFormat(intlTag(s.locale), { dateStyle: "medium", timeStyle: "short" }).format(k.mtsCreate);
  const label = k.label;
  return (
    <li className={css.card} data-testid="api-key" data-key={k.key}>
      <div className={css.cardHead}>
        <h3 className={css.cardTitle}>{label}</h3>
        {created && <span className={css.muted}>{t`Created ${created}`}</span>}
      </div>
      <p className={css.muted}>
        <Trans>Key</Trans> <span className={css.mono}>{k.key}</span>
      </p>
      <ul className={css.chips} aria-label={t`Permissions of ${label}`}>
        {granted.map((scope) => {
          const name = i18n._(SCOPE_LABELS[scope]);
          return (
            <li key={scope} className={k.matrix[scope].write ? css.chipWrite : css.chip}>
              {k.matrix[scope].write ? t`${name}: read and write` : t`${name}: read only`}
            </li>
          );
        })}
      </ul>
      <p className={css.muted}>
        {k.ips.length === 0 ? t`Usable from any IP address.` : t`Usable only from:`}{" "}
        {k.ips.length > 0 && <span className={css.mono}>{k.ips.join(", ")}</span>}
      </p>
      <div className={css.row}>
        <button type="button" className={css.ghost} onClick={onEdit} aria-label={t`Edit ${label}`}>
          <Trans>Edit</Trans>
        </button>
        <button type="button" className={css.danger} onClick={onRevoke} aria-label={t`Revoke ${label}`}>
          <Trans>Revoke</Trans>
        </button>
      </div>
    </li>
  );
}

type Dialog =
  | { readonly kind: "none" }
  | { readonly kind: "missing" }
  | { readonly kind: "edit"; readonly key: KeyView }
  | { readonly kind: "revoke"; readonly key: KeyView | null };

/**
 * /api: the account's API keys — list, create (name, read/write permissions per scope, optional IP
 * allowlist) confirmed with the mailed or authenticator code, the secret shown once, edit, revoke
 * one or all. The logic is src/ui/api-keys/model.ts; this is its view.
 */
export function ApiKeysPage() {
  const { t, i18n } = useLingui();
  const model = useMemo(() => new ApiKeysModel(authCall), []);
  const st = useSnapshot(model.state);
  const a = useSnapshot(auth);
  const errorText = useCallErrorText();
  // An API-key sign-in has no token: keys are managed only in a password sign-in (a key may not).
  const keySession = a.authToken === "" && a.apiKey !== "";

  const [form, setForm] = useState<KeyForm>(EMPTY_FORM);
  const [createError, setCreateError] = useState<CallError | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<CallError | null>(null);
  // An API-key session is told at once why nothing here can be changed.
  const [dialog, setDialog] = useState<Dialog>(() => (keySession ? { kind: "missing" } : { kind: "none" }));
  const [edit, setEdit] = useState<KeyForm>(EMPTY_FORM);
  const [editError, setEditError] = useState<CallError | null>(null);
  const [revokeError, setRevokeError] = useState<CallError | null>(null);
  const [announce, setAnnounce] = useState("");

  useEffect(() => {
    if (!keySession) void model.refresh();
  }, [model, keySession]);

  const missing = keySession ? [...MANAGE_NEEDS] : st.own ? missingPermissions(st.own, MANAGE_NEEDS) : [];
  /** Runs `action` only when the credential may manage keys; else the missing-permissions warning. */
  const guarded = (action: () => void): void => {
    if (missing.length > 0) setDialog({ kind: "missing" });
    else action();
  };

  async function submitCreate(e: FormEvent): Promise<void> {
    e.preventDefault();
    if (missing.length > 0) {
      setDialog({ kind: "missing" });
      return;
    }
    const r = await model.generate(form);
    setCreateError(r.ok ? null : r.error);
    if (r.ok) {
      setCode("");
      setCodeError(null);
    }
  }

  async function submitCode(e: FormEvent): Promise<void> {
    e.preventDefault();
    const r = await model.verify(code);
    setCodeError(r.ok ? null : r.error);
    if (r.ok) {
      setForm(EMPTY_FORM);
      setCreateError(null);
    } else if (r.error.kind === "expired") setCreateError(r.error);
  }

  async function submitEdit(e: FormEvent): Promise<void> {
    e.preventDefault();
    if (dialog.kind !== "edit") return;
    const r = await model.update(dialog.key.key, edit);
    setEditError(r.ok ? null : r.error);
    if (r.ok) {
      setDialog({ kind: "none" });
      setAnnounce(t`The key has been updated.`);
    }
  }

  async function confirmRevoke(): Promise<void> {
    if (dialog.kind !== "revoke") return;
    const r = await model.revoke(dialog.key?.key ?? null);
    setRevokeError(r.ok ? null : r.error);
    if (r.ok) {
      setDialog({ kind: "none" });
      setAnnounce(dialog.key === null ? t`All keys have been revoked.` : t`The key has been revoked.`);
    }
  }

  const close = (): void => setDialog({ kind: "none" });
  const pending = st.pending;
  const pendingLabel = pending?.label ?? "";
  const created = st.created;
  const missingList = missing
    .map((m) => {
      const name = i18n._(SCOPE_LABELS[m.scope]);
      return m.write ? t`${name}: write` : t`${name}: read`;
    })
    .join(", ");
  const codeText = codeError ? errorText(codeError) : null;
  const createText = createError ? errorText(createError) : null;
  const editText = editError ? errorText(editError) : null;
  const revokeText = revokeError ? errorText(revokeError) : null;
  const revokeLabel = dialog.kind === "revoke" ? (dialog.key?.label ?? null) : null;
  const keyCount = st.keys.length;

  return (
    <section className={css.page}>
      <h1 className={pages.h1}>
        <Trans>API keys</Trans>
      </h1>
      <p className={pages.lead}>
        <Trans>
          An API key lets your own programs read your account or trade without your password. Each key can do only what
          you allow, and only from the addresses you list.
        </Trans>
      </p>
      <p className={css.hint} role="status">
        {announce}
      </p>

      <div className={css.sectionHead}>
        <h2 className={css.h2}>
          <Trans>Your keys</Trans>
        </h2>
        {st.keys.length > 0 && (
          <button
            type="button"
            className={css.danger}
            onClick={() => guarded(() => setDialog({ kind: "revoke", key: null }))}
          >
            <Trans>Revoke all</Trans>
          </button>
        )}
      </div>
      {keySession ? (
        <p className={css.warning}>
          <Trans>You signed in with an API key. Keys can be managed only after signing in with your password.</Trans>
        </p>
      ) : st.load === "loading" ? (
        <p className={css.muted} role="status">
          <Trans>Loading your keys…</Trans>
        </p>
      ) : st.load === "failed" ? (
        <div className={css.row}>
          <p className={css.alert} role="alert">
            <Trans>Your keys could not be loaded.</Trans>
          </p>
          <button type="button" className={css.ghost} onClick={() => void model.refresh()}>
            <Trans>Try again</Trans>
          </button>
        </div>
      ) : st.keys.length === 0 ? (
        <p className={css.muted}>
          <Trans>You have no API keys yet.</Trans>
        </p>
      ) : (
        <ul className={css.list}>
          {st.keys.map((k) => (
            <KeyCard
              key={k.key}
              k={k}
              onEdit={() =>
                guarded(() => {
                  setEdit({ label: k.label, matrix: k.matrix, ips: k.ips.join("\n") });
                  setEditError(null);
                  setDialog({ kind: "edit", key: k });
                })
              }
              onRevoke={() =>
                guarded(() => {
                  setRevokeError(null);
                  setDialog({ kind: "revoke", key: k });
                })
              }
            />
          ))}
        </ul>
      )}

      <div className={css.sectionHead}>
        <h2 className={css.h2}>
          <Trans>Create a key</Trans>
        </h2>
      </div>
      <form className={css.form} noValidate onSubmit={(e) => void submitCreate(e)} data-testid="create-key-form">
        <KeyFormFields value={form} onChange={setForm} errors={fieldErrors(createError)} />
        {createText && (
          <p className={css.alert} role="alert">
            {createText}
          </p>
        )}
        <div className={css.row}>
          <button type="submit" className={css.button} disabled={st.busy.generate || keySession}>
            {st.busy.generate ? t`Sending the code…` : t`Create key`}
          </button>
        </div>
      </form>

      <Modal
        open={pending !== null}
        title={t`Confirm the new key`}
        onClose={() => model.cancelPending()}
        testId="code-dialog"
      >
        <form className={css.form} noValidate onSubmit={(e) => void submitCode(e)}>
          <p className={css.muted}>
            {pending?.method === "otp"
              ? t`Enter the current 6-digit code from your authenticator app to create the key “${pendingLabel}”.`
              : t`We sent a 6-digit code to your e-mail address. Enter it to create the key “${pendingLabel}”.`}
          </p>
          <label className={css.field}>
            <span>{pending?.method === "otp" ? t`Authenticator code` : t`Code from the e-mail`}</span>
            <input
              className={css.input}
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              autoFocus
              value={code}
              aria-invalid={codeError !== null}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
            />
          </label>
          {codeText && (
            <p className={css.alert} role="alert">
              {codeText}
            </p>
          )}
          <div className={css.row}>
            <button type="submit" className={css.button} disabled={st.busy.verify}>
              {st.busy.verify ? t`Checking…` : t`Confirm`}
            </button>
            <button type="button" className={css.ghost} onClick={() => model.cancelPending()}>
              <Trans>Cancel</Trans>
            </button>
          </div>
        </form>
      </Modal>

      <Modal
        open={created !== null}
        title={t`Your new API key`}
        onClose={() => model.acknowledgeSecret()}
        testId="secret-dialog"
      >
        <p className={css.warning}>
          <Trans>
            Copy the secret now: it is shown only this once. Whoever has the key and its secret can use the key with all
            its permissions.
          </Trans>
        </p>
        <SecretField label={t`API key`} value={created?.key ?? ""} name="new-api-key" />
        <SecretField label={t`API secret`} value={created?.secret ?? ""} name="new-api-secret" />
        <div className={css.row}>
          <button type="button" className={css.button} onClick={() => model.acknowledgeSecret()}>
            <Trans>I have saved the secret</Trans>
          </button>
        </div>
      </Modal>

      <Modal open={dialog.kind === "edit"} title={t`Edit the key`} onClose={close} testId="edit-dialog">
        <form className={css.form} noValidate onSubmit={(e) => void submitEdit(e)}>
          <KeyFormFields value={edit} onChange={setEdit} errors={fieldErrors(editError)} />
          {editText && (
            <p className={css.alert} role="alert">
              {editText}
            </p>
          )}
          <div className={css.row}>
            <button type="submit" className={css.button} disabled={st.busy.update}>
              {st.busy.update ? t`Saving…` : t`Save`}
            </button>
            <button type="button" className={css.ghost} onClick={close}>
              <Trans>Cancel</Trans>
            </button>
          </div>
        </form>
      </Modal>

      <Modal
        open={dialog.kind === "revoke"}
        title={dialog.kind === "revoke" && dialog.key === null ? t`Revoke all keys?` : t`Revoke this key?`}
        onClose={close}
        testId="revoke-dialog"
      >
        <p className={css.muted}>
          {revokeLabel !== null
            ? t`Programs using “${revokeLabel}” stop working at once. This cannot be undone.`
            : t`Every program using one of your ${keyCount} keys stops working at once. This cannot be undone.`}
        </p>
        {revokeText && (
          <p className={css.alert} role="alert">
            {revokeText}
          </p>
        )}
        <div className={css.row}>
          <button type="button" className={css.danger} disabled={st.busy.revoke} onClick={() => void confirmRevoke()}>
            {dialog.kind === "revoke" && dialog.key === null ? t`Revoke all` : t`Revoke`}
          </button>
          <button type="button" className={css.ghost} onClick={close}>
            <Trans>Cancel</Trans>
          </button>
        </div>
      </Modal>

      <Modal
        open={dialog.kind === "missing"}
        title={t`Missing permissions`}
        onClose={close}
        testId="missing-permissions"
      >
        <p className={css.muted}>
          <Trans>The credential you are signed in with cannot manage API keys. It lacks: {missingList}.</Trans>
        </p>
        <p className={css.muted}>
          <Trans>Sign in with your e-mail or username and password to create, edit or revoke keys.</Trans>
        </p>
        <div className={css.row}>
          <a className={css.button} href="/logout">
            <Trans>Sign out</Trans>
          </a>
          <button type="button" className={css.ghost} onClick={close}>
            <Trans>Close</Trans>
          </button>
        </div>
      </Modal>
    </section>
  );
}

/** A read-only field with a copy button (the clipboard may be refused: the text stays selectable). */
function SecretField({
  label,
  value,
  name,
}: {
  readonly label: string;
  readonly value: string;
  readonly name: string;
}) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  const id = useId();
  // The label names the field alone (a label wrapping the copy button would add its text to the name).
  return (
    <div className={css.field}>
      <label htmlFor={id}>{label}</label>
      <span className={css.secretRow}>
        <input
          id={id}
          className={css.secretInput}
          name={name}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          className={css.ghost}
          aria-label={t`Copy ${label}`}
          onClick={() => {
            navigator.clipboard.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? t`Copied` : t`Copy`}
        </button>
      </span>
    </div>
  );
}
