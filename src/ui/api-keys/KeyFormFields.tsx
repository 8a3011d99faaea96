import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import * as css from "./api-keys.css";
import {
  KEY_SCOPES,
  MAX_IPS,
  MAX_LABEL,
  matrixFromPermissionString,
  setAccess,
  type FormErrors,
  type IpError,
  type KeyForm,
  type KeyScope,
  type LabelError,
  type Matrix,
} from "./model";

export const SCOPE_LABELS: Readonly<Record<KeyScope, MessageDescriptor>> = {
  account: msg`Account`,
  history: msg`History`,
  orders: msg`Orders`,
  positions: msg`Positions`,
  funding: msg`Funding`,
  settings: msg`Settings`,
  wallets: msg`Wallets`,
  withdraw: msg`Withdrawals`,
};

/** The localized field errors of the key form (the same words whether the app or the exchange refused). */
export function useFormErrorTexts() {
  const { t } = useLingui();
  const label = (e: LabelError): string => {
    switch (e) {
      case "required":
        return t`Enter a name for the key.`;
      case "too-long":
        return t`Use at most ${MAX_LABEL} characters.`;
      case "control":
        return t`Use a single line without tabs.`;
      case "invalid":
        return t`Use 1 to ${MAX_LABEL} characters on a single line.`;
      default: {
        const never: never = e;
        return never;
      }
    }
  };
  const ips = (e: IpError): string => {
    if (e.kind === "too-many") return t`List at most ${MAX_IPS} addresses or ranges.`;
    const entry = e.entry;
    return t`“${entry}” is not an IP address or range (for example 203.0.113.7 or 203.0.113.0/24).`;
  };
  const permissions = t`Choose at least one permission.`;
  return { label, ips, permissions };
}

/** The label, the read/write permission matrix (or a pasted permission string) and the IP allowlist. */
export function KeyFormFields({
  value,
  onChange,
  errors,
}: {
  readonly value: KeyForm;
  readonly onChange: (next: KeyForm) => void;
  readonly errors: FormErrors;
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  const texts = useFormErrorTexts();
  const [pasted, setPasted] = useState("");
  const [pasteError, setPasteError] = useState(false);
  const setMatrix = (matrix: Matrix): void => onChange({ ...value, matrix });

  function applyPasted(): void {
    const m = matrixFromPermissionString(pasted);
    setPasteError(m === null);
    if (m) {
      setMatrix(m);
      setPasted("");
    }
  }

  return (
    <>
      {/* Labels name their field only: an error is the field's description, not part of its name. */}
      <div className={css.field}>
        <label htmlFor={`${id}-label`}>
          <Trans>Name</Trans>
        </label>
        <input
          id={`${id}-label`}
          className={css.input}
          name="label"
          autoComplete="off"
          maxLength={MAX_LABEL + 16}
          value={value.label}
          aria-invalid={errors.label !== undefined}
          aria-describedby={errors.label ? `${id}-label-error` : undefined}
          onChange={(e) => onChange({ ...value, label: e.target.value })}
        />
        {errors.label && (
          <span id={`${id}-label-error`} className={css.fieldError}>
            {texts.label(errors.label)}
          </span>
        )}
      </div>

      <fieldset className={css.fieldset} aria-describedby={errors.permissions ? `${id}-perm-error` : undefined}>
        <legend className={css.matrixCaption}>
          <Trans>Permissions</Trans>
        </legend>
        <p className={css.hint}>
          <Trans>Write includes read. Give a key only what its program needs.</Trans>
        </p>
        <table className={css.matrix}>
          <thead>
            <tr>
              <th scope="col" className={css.matrixScope}>
                <Trans>Scope</Trans>
              </th>
              <th scope="col" className={css.matrixCell}>
                <Trans>Read</Trans>
              </th>
              <th scope="col" className={css.matrixCell}>
                <Trans>Write</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {KEY_SCOPES.map((scope) => {
              const name = i18n._(SCOPE_LABELS[scope]);
              const cell = value.matrix[scope];
              return (
                <tr key={scope}>
                  <th scope="row" className={css.matrixScope}>
                    {name}
                  </th>
                  <td className={css.matrixCell}>
                    <input
                      type="checkbox"
                      className={css.checkbox}
                      aria-label={t`${name}: read`}
                      data-testid={`perm-${scope}-read`}
                      checked={cell.read}
                      onChange={(e) => setMatrix(setAccess(value.matrix, scope, "read", e.target.checked))}
                    />
                  </td>
                  <td className={css.matrixCell}>
                    <input
                      type="checkbox"
                      className={css.checkbox}
                      aria-label={t`${name}: write`}
                      data-testid={`perm-${scope}-write`}
                      checked={cell.write}
                      onChange={(e) => setMatrix(setAccess(value.matrix, scope, "write", e.target.checked))}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {errors.permissions && (
          <p id={`${id}-perm-error`} className={css.fieldError}>
            {texts.permissions}
          </p>
        )}
        <div className={css.field}>
          <label htmlFor={`${id}-paste`}>
            <Trans>Or set them from a permission string</Trans>
          </label>
          <div className={css.secretRow}>
            <input
              id={`${id}-paste`}
              className={css.secretInput}
              autoComplete="off"
              spellCheck={false}
              placeholder="orders-read,wallets-read"
              value={pasted}
              aria-invalid={pasteError}
              aria-describedby={`${id}-paste-hint`}
              onChange={(e) => {
                setPasted(e.target.value);
                setPasteError(false);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  applyPasted();
                }
              }}
            />
            <button type="button" className={css.ghost} onClick={applyPasted}>
              <Trans>Apply</Trans>
            </button>
          </div>
          <p
            id={`${id}-paste-hint`}
            className={pasteError ? css.fieldError : css.hint}
            role={pasteError ? "alert" : undefined}
          >
            {pasteError
              ? t`This permission string could not be read. Write it as orders-read,wallets-write or as o:w:1.`
              : t`Either form: scopes with read or write (orders-read,wallets-write), or letters with a write flag (o:w:1, read only: o:w:0).`}
          </p>
        </div>
      </fieldset>

      <div className={css.field}>
        <label htmlFor={`${id}-ips`}>
          <Trans>Allowed IP addresses (optional)</Trans>
        </label>
        <textarea
          id={`${id}-ips`}
          className={css.textarea}
          name="ips"
          spellCheck={false}
          value={value.ips}
          aria-invalid={errors.ips !== undefined}
          aria-describedby={`${id}-ips-hint`}
          onChange={(e) => onChange({ ...value, ips: e.target.value })}
        />
        <span id={`${id}-ips-hint`} className={errors.ips ? css.fieldError : css.hint}>
          {errors.ips
            ? texts.ips(errors.ips)
            : t`Addresses or ranges, separated by commas or lines (203.0.113.7, 2001:db8::/32). Empty: any address.`}
        </span>
      </div>
    </>
  );
}
