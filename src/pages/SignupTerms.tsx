import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Modal } from "../ui/desk/Modal";
import * as css from "./pages.css";
import * as sc from "./session.css";
import * as s from "./signup.css";

/**
 * The terms dialog of a sign-up form (the global one and the regional ones): the terms' version,
 * their points (`children`, the list items), and "I agree", which ticks the form's terms box.
 * Closing without agreeing leaves the box as it was.
 */
export function SignupTermsDialog(props: {
  readonly open: boolean;
  readonly title: string;
  readonly testId: string;
  readonly version: string;
  /** When the terms last changed, formatted; null when the exchange did not say. */
  readonly updated: string | null;
  readonly onClose: () => void;
  readonly onAgree: () => void;
  readonly children: ReactNode;
}) {
  const { t } = useLingui();
  const { version, updated } = props;
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose} testId={props.testId}>
      <div className={s.dialogBody}>
        <p className={sc.hint}>{updated ? t`Version ${version}, last changed ${updated}.` : t`Version ${version}.`}</p>
        <ol className={s.terms}>{props.children}</ol>
        <div className={s.dialogActions}>
          <button type="button" className={s.button} onClick={props.onClose}>
            <Trans>Close</Trans>
          </button>
          <button type="button" className={css.cta} onClick={props.onAgree}>
            <Trans>I agree</Trans>
          </button>
        </div>
      </div>
    </Modal>
  );
}
