import { Trans, useLingui } from "@lingui/react/macro";
import { useSnapshot } from "valtio";
import { paperSwitch } from "./paper-mode";
import * as css from "./paper.css";
import { runSwitch, usePaperOwner } from "./use-paper";

/**
 * The banner under the header on every page while in paper mode: a badge and a sentence saying the
 * funds are test funds, and the way back to live. A switch that failed (either way) is told here too.
 */
export function PaperBanner() {
  const { t } = useLingui();
  const owner = usePaperOwner();
  const sw = useSnapshot(paperSwitch);
  const failed =
    sw.error === "unreachable"
      ? t`Could not reach the exchange to switch accounts. Try again.`
      : sw.error === "refused"
        ? t`The exchange did not switch accounts. Sign in again and retry.`
        : null;
  if (owner === null)
    return failed === null ? null : (
      <p role="alert" className={css.switchError} style={{ margin: "4px 16px" }}>
        {failed}
      </p>
    );
  return (
    <section className={css.banner} aria-label={t`Paper trading`} data-testid="paper-banner">
      <p className={css.bannerText} style={{ margin: 0 }}>
        <span className={css.badge}>
          <Trans>Paper</Trans>
        </span>
        <Trans>Paper trading: test funds only, nothing here is real money.</Trans>
        {failed !== null && (
          <span role="alert" style={{ display: "block" }}>
            {failed}
          </span>
        )}
      </p>
      <button type="button" className={css.bannerButton} disabled={sw.busy} onClick={() => void runSwitch(owner)}>
        <Trans>Back to live</Trans>
      </button>
    </section>
  );
}
