import { Trans, useLingui } from "@lingui/react/macro";
import { useSnapshot } from "valtio";
import { navigate } from "wouter/use-browser-location";
import { Modal } from "../desk/Modal";
import * as s from "../desk/desk.css";
import { discardUnsaved, leaveGuard } from "./leave-guard";

/** The question before a link leaves a page with unsaved changes (leave-guard.ts). */
export function LeaveDialog() {
  const { t } = useLingui();
  const g = useSnapshot(leaveGuard);
  const stay = (): void => {
    leaveGuard.pending = null;
  };
  const leave = (): void => {
    const to = leaveGuard.pending;
    leaveGuard.pending = null;
    if (to === null) return;
    discardUnsaved();
    navigate(to);
    window.scrollTo(0, 0);
  };
  return (
    <Modal open={g.pending !== null} title={t`Leave without saving?`} onClose={stay} testId="leave-dialog">
      <p>
        <Trans>This page has changes that are not saved yet. If you leave now, they are lost.</Trans>
      </p>
      <div className={s.dialogActions}>
        <button type="button" className={s.primary} onClick={stay} autoFocus>
          <Trans>Stay on this page</Trans>
        </button>
        <button type="button" className={s.button} onClick={leave}>
          <Trans>Leave without saving</Trans>
        </button>
      </div>
    </Modal>
  );
}
