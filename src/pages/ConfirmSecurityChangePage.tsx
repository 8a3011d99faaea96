import { Trans, useLingui } from "@lingui/react/macro";
import { useSearch } from "wouter";
import { useMailedLink } from "../ui/security/mailed-link";
import { checkMailedChange, decideMailedChange } from "../ui/security/settings-api";
import { useSettingLabels, useSettingsErrorText, useSettingValueText } from "../ui/security/SecuritySettings";
import * as css from "./pages.css";

/**
 * The mailed links of a security change that waits for its owner
 * (`/confirm-security-change?token=…`, `&action=cancel` for the cancel link;
 * docs/product-rules.md#account-security-settings): shows the change and asks before applying or
 * dropping it, so a mail scanner opening a link changes nothing. A link used, cancelled, replaced
 * or expired goes to `/invalid-token?kind=security`.
 */
export function ConfirmSecurityChangePage() {
  const { i18n } = useLingui();
  const labels = useSettingLabels();
  const valueText = useSettingValueText();
  const errorText = useSettingsErrorText();
  const params = new URLSearchParams(useSearch());
  const token = params.get("token") ?? "";
  const cancelLink = params.get("action") === "cancel";
  const { state, error, busy, decide } = useMailedLink(
    token,
    checkMailedChange,
    decideMailedChange,
    "/invalid-token?kind=security",
  );

  const asked =
    state.kind === "ask" ? i18n.date(new Date(state.subject.created), { dateStyle: "medium", timeStyle: "short" }) : "";
  const confirmButton = (
    <button
      type="button"
      className={cancelLink ? css.ctaGhost : css.cta}
      disabled={busy}
      onClick={() => void decide(true)}
    >
      <Trans>Confirm the change</Trans>
    </button>
  );
  const cancelButton = (
    <button
      type="button"
      className={cancelLink ? css.cta : css.ctaGhost}
      disabled={busy}
      onClick={() => void decide(false)}
    >
      <Trans>Cancel the change</Trans>
    </button>
  );

  return (
    <section className={css.hero} data-testid="confirm-security-change">
      <h1 className={css.h1}>
        <Trans>Confirm a security change</Trans>
      </h1>
      {error !== null && (
        <p className={css.alert} role="alert">
          {errorText(error)}
        </p>
      )}
      {state.kind === "checking" && error === null && (
        <p className={css.lead} role="status">
          <Trans>Checking the link…</Trans>
        </p>
      )}
      {state.kind === "ask" && (
        <>
          <p className={css.lead}>
            <Trans>
              This change makes your account less protected, so it waits for you. It was asked for on {asked}.
            </Trans>
          </p>
          <dl className={css.card}>
            <dt className={css.muted}>
              <Trans>Setting</Trans>
            </dt>
            <dd>{labels[state.subject.setting]}</dd>
            <dt className={css.muted}>
              <Trans>New value</Trans>
            </dt>
            <dd>{valueText(state.subject.setting, state.subject.val)}</dd>
          </dl>
          <div className={css.actions}>
            {cancelLink ? cancelButton : confirmButton}
            {cancelLink ? confirmButton : cancelButton}
          </div>
        </>
      )}
      {state.kind === "confirmed" && (
        <>
          <p className={css.lead} role="status">
            <Trans>The change is made.</Trans>
          </p>
          <a className={css.cta} href="/security">
            <Trans>Go to your security settings</Trans>
          </a>
        </>
      )}
      {state.kind === "cancelled" && (
        <>
          <p className={css.lead} role="status">
            <Trans>
              The change is cancelled: nothing was changed. If you did not ask for it, change your password.
            </Trans>
          </p>
          <a className={css.cta} href="/security">
            <Trans>Go to your security settings</Trans>
          </a>
        </>
      )}
    </section>
  );
}
