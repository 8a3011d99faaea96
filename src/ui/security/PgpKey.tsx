/**
 * The security page's PGP key card (docs/product-rules.md#account-security): paste an armored
 * public key, read the code from the mail encrypted to it (or open the mail's link, which brings
 * the code here as `?pgp=`), and from then on every mail comes encrypted; remove it with the
 * password. Its status shows as a pill: pending, then active.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { useLocation, useSearch } from "wouter";
import { PGP_CONFIRM_PARAM, PGP_KEY_MAX_CHARS, type PgpKeyInfo } from "../../protocol";
import { pgpConfirm, pgpKeys, pgpRemove, pgpUpdate, type FactorError } from "./factor-api";
import { digitsOnly, FactorAlert, FactorField, PasswordField, useFactorAction } from "./factor-parts";
import * as css from "./factors.css";

/** `ABCD EF01 …`: a fingerprint in groups of four, as key tools print it. */
const spaced = (fingerprint: string): string => fingerprint.replace(/(.{4})(?=.)/g, "$1 ");

function KeyFacts({ k }: { readonly k: PgpKeyInfo }) {
  const { t, i18n } = useLingui();
  const created = i18n.date(new Date(k.created), { dateStyle: "medium" });
  const algorithm = k.algorithm;
  const expires = k.expires === null ? t`never` : i18n.date(new Date(k.expires), { dateStyle: "medium" });
  return (
    <dl className={css.facts}>
      <div>
        <dt className={css.hint}>
          <Trans>Fingerprint</Trans>
        </dt>
        <dd className={css.mono} data-testid="pgp-fingerprint">
          {spaced(k.fingerprint)}
        </dd>
      </div>
      {k.userIds.length > 0 && (
        <div>
          <dt className={css.hint}>
            <Trans>User ID</Trans>
          </dt>
          <dd>{k.userIds.join(", ")}</dd>
        </div>
      )}
      <div>
        <dt className={css.hint}>
          <Trans>Key</Trans>
        </dt>
        <dd>{t`${algorithm}, created ${created}, expires ${expires}`}</dd>
      </div>
    </dl>
  );
}

export function PgpKey() {
  const { t } = useLingui();
  const search = useSearch();
  const [, navigate] = useLocation();
  const linkCode = new URLSearchParams(search).get(PGP_CONFIRM_PARAM);
  const [keys, setKeys] = useState<PgpKeyInfo[] | null>(null);
  const [loadError, setLoadError] = useState<FactorError | null>(null);
  const [adding, setAdding] = useState(false);
  const [armored, setArmored] = useState("");
  const [code, setCode] = useState(linkCode ?? "");
  const [removing, setRemoving] = useState(false);
  const [password, setPassword] = useState("");
  const { busy, error, act, clear } = useFactorAction();
  const linkTried = useRef(false);

  const apply = useCallback((r: Awaited<ReturnType<typeof pgpKeys>>): void => {
    if (r.ok) {
      setKeys(r.value);
      setLoadError(null);
    } else setLoadError(r.error);
  }, []);
  const load = useCallback(async (): Promise<void> => apply(await pgpKeys()), [apply]);

  useEffect(() => {
    let live = true;
    void pgpKeys().then((r) => {
      if (live) apply(r);
    });
    return () => {
      live = false;
    };
  }, [apply]);

  const active = keys?.find((k) => k.status === "active") ?? null;
  const pending = keys?.find((k) => k.status === "pending") ?? null;

  const confirm = useCallback(
    async (value: string): Promise<void> => {
      const r = await act(() => pgpConfirm(digitsOnly(value)));
      if (r.ok) {
        setCode("");
        await load();
      }
      // The link's code is spent (or refused) once: the address loses it either way.
      if (linkCode !== null) navigate("/security", { replace: true });
    },
    [act, load, linkCode, navigate],
  );

  // Opening the mail's link confirms the pending key at once.
  useEffect(() => {
    if (linkCode === null || linkTried.current || pending === null) return;
    linkTried.current = true;
    void confirm(linkCode);
  }, [linkCode, pending, confirm]);

  const submitKey = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const r = await act(() => pgpUpdate(armored));
    if (r.ok) {
      setArmored("");
      setAdding(false);
      setCode("");
      await load();
    }
  };

  const submitCode = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    await confirm(code);
  };

  const remove = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const r = await act(() => pgpRemove(password));
    if (r.ok) {
      setPassword("");
      setRemoving(false);
      await load();
    }
  };

  const status = active ? "active" : pending ? "pending" : null;

  return (
    <section className={css.card} aria-labelledby="pgp-title" data-testid="pgp-card">
      <div className={css.head}>
        <h3 className={css.h3} id="pgp-title">
          <Trans>PGP key for e-mail</Trans>
        </h3>
        {status === "active" && (
          <span className={css.pillActive} data-testid="pgp-status">
            <Trans>Active</Trans>
          </span>
        )}
        {status === "pending" && (
          <span className={css.pillPending} data-testid="pgp-status">
            <Trans>Pending</Trans>
          </span>
        )}
        {status === null && keys !== null && (
          <span className={css.badgeOff} data-testid="pgp-status">
            <Trans>Off</Trans>
          </span>
        )}
      </div>
      <p className={css.hint}>
        <Trans>
          With your OpenPGP public key, every mail we send you is encrypted to it, so only you can read it — codes and
          the freeze link included.
        </Trans>
      </p>
      {keys === null ? (
        loadError ? (
          <FactorAlert error={loadError} />
        ) : (
          <p className={css.hint} role="status">
            <Trans>Loading…</Trans>
          </p>
        )
      ) : (
        <>
          {active && <KeyFacts k={active} />}
          {pending && (
            <form className={css.wide} noValidate onSubmit={(e) => void submitCode(e)} data-testid="pgp-confirm">
              {active && (
                <p className={css.hint}>
                  <Trans>A new key waits for confirmation; the active key stays in use until then.</Trans>
                </p>
              )}
              <KeyFacts k={pending} />
              <p className={css.hint}>
                <Trans>
                  We mailed you a code encrypted to this key. Decrypt the mail and enter the code, or open the link in
                  it.
                </Trans>
              </p>
              <FactorField
                label={<Trans>Code from the encrypted mail</Trans>}
                name="pgp-code"
                code
                value={code}
                onChange={setCode}
              />
              <FactorAlert error={adding || removing ? null : error} />
              <div className={css.actions}>
                <button type="submit" className={css.cta} disabled={busy}>
                  {busy ? t`Checking…` : t`Confirm key`}
                </button>
              </div>
            </form>
          )}
          {adding ? (
            <form className={css.wide} noValidate onSubmit={(e) => void submitKey(e)} data-testid="pgp-add">
              <label className={css.field}>
                <span>
                  <Trans>Your public key (ASCII armored)</Trans>
                </span>
                <textarea
                  className={css.textarea}
                  name="pgp-key"
                  spellCheck={false}
                  maxLength={PGP_KEY_MAX_CHARS}
                  value={armored}
                  onChange={(e) => {
                    setArmored(e.target.value);
                    clear();
                  }}
                />
              </label>
              <FactorAlert error={error} />
              <div className={css.actions}>
                <button type="submit" className={css.cta} disabled={busy}>
                  {busy ? t`Checking…` : t`Save key`}
                </button>
                <button type="button" className={css.linkButton} onClick={() => setAdding(false)}>
                  <Trans>Cancel</Trans>
                </button>
              </div>
            </form>
          ) : removing ? (
            <form className={css.form} noValidate onSubmit={(e) => void remove(e)} data-testid="pgp-remove">
              <PasswordField name="pgp-password" value={password} onChange={setPassword} />
              <FactorAlert error={error} />
              <div className={css.actions}>
                <button type="submit" className={css.danger} disabled={busy}>
                  <Trans>Remove key</Trans>
                </button>
                <button type="button" className={css.linkButton} onClick={() => setRemoving(false)}>
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
                {status === null ? t`Add a PGP key` : t`Replace key`}
              </button>
              {status !== null && (
                <button
                  type="button"
                  className={css.danger}
                  onClick={() => {
                    clear();
                    setRemoving(true);
                  }}
                >
                  <Trans>Remove key</Trans>
                </button>
              )}
            </div>
          )}
        </>
      )}
    </section>
  );
}
