import { useLingui } from "@lingui/react/macro";
import { useSnapshot } from "valtio";
import { useLocation } from "wouter";
import { Modal } from "../api-keys";
import { deskPath } from "../desk/desk-paths";
import * as shell from "../shell/shell.css";
import {
  closeDemoBlock,
  defaultDeskPair,
  demoBlock,
  liveOnlyPage,
  paperSwitch,
  type LiveOnlyAction,
} from "./paper-mode";
import * as css from "./paper.css";
import { runSwitch, usePaperOwner } from "./use-paper";

/**
 * The demo-block dialog (docs/product-rules.md#paper-trading): a paper account reached a live-only
 * page (deposit, withdrawal, API keys). It says so, and offers the way
 * back to live — landing where the person was going — or back to the paper desk. Loaded and
 * mounted by DemoBlockHost when there is something to say.
 */
export function DemoBlockDialog() {
  const { t } = useLingui();
  const owner = usePaperOwner();
  const [path, navigate] = useLocation();
  const { action } = useSnapshot(demoBlock);
  const sw = useSnapshot(paperSwitch);
  const page = owner !== null ? liveOnlyPage(path) : null;
  const reason = (a: LiveOnlyAction): string => {
    switch (a) {
      case "deposit":
        return t`Deposits are for your live account.`;
      case "withdraw":
        return t`Withdrawals are for your live account.`;
      case "api-keys":
        return t`API keys are for your live account.`;
      default: {
        const never: never = a;
        return never;
      }
    }
  };
  // Staying in paper leaves the live-only page for the paper desk: behind the dialog it can do nothing.
  const stay = (): void => {
    closeDemoBlock();
    if (page !== null) navigate(deskPath("t", defaultDeskPair(true)));
  };
  return (
    <Modal
      open={action !== null && owner !== null}
      title={t`Not available in paper trading`}
      onClose={stay}
      testId="demo-block-dialog"
    >
      {action !== null && owner !== null && (
        <>
          <p>{reason(action)}</p>
          <p>{t`You are paper trading with test funds. Switch back to live to continue.`}</p>
          <div className={css.actions}>
            <button type="button" className={shell.button} disabled={sw.busy} onClick={() => void runSwitch(owner)}>
              {t`Switch to live`}
            </button>
            <button type="button" className={shell.ghostButton} onClick={stay}>
              {t`Keep paper trading`}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
