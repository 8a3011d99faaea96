import { Trans, useLingui } from "@lingui/react/macro";
import { useSnapshot } from "valtio";
import { dismissMaintenance, maintenance } from "./maintenance";
import * as css from "./shell.css";

export function MaintenanceNotice() {
  const { t } = useLingui();
  const m = useSnapshot(maintenance);
  if (!m.active || m.dismissed) return null;
  return (
    <div className={css.notice} role="status" data-testid="maintenance-notice">
      <span className={css.noticeText}>
        <Trans>
          The exchange is under maintenance. Trading and withdrawals are paused; market data may be delayed.
        </Trans>
      </span>
      <button type="button" className={css.ghostButton} aria-label={t`Dismiss`} onClick={dismissMaintenance}>
        ✕
      </button>
    </div>
  );
}
