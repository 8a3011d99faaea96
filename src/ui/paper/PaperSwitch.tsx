import { Trans, useLingui } from "@lingui/react/macro";
import { useSnapshot } from "valtio";
import { paperSwitch } from "./paper-mode";
import * as css from "./paper.css";
import { paperEnabled, runSwitch, usePaperOwner } from "./use-paper";

/**
 * The header's live/paper switch (docs/product-rules.md#paper-trading): two pressed-state buttons,
 * the current mode pressed, so the mode is said by the pressed state and the words, not by colour.
 * Signed-in users on a variant with paper trading only.
 */
export function PaperSwitch({ loggedIn }: { readonly loggedIn: boolean }) {
  const { t } = useLingui();
  const owner = usePaperOwner();
  const sw = useSnapshot(paperSwitch);
  if (!loggedIn || !paperEnabled()) return null;
  const paper = owner !== null;
  return (
    <div role="group" aria-label={t`Trading mode`} className={css.switchGroup} aria-busy={sw.busy}>
      <button
        type="button"
        className={css.liveSegment}
        aria-pressed={!paper}
        disabled={sw.busy}
        onClick={() => {
          if (paper) void runSwitch(owner);
        }}
      >
        <Trans>Live</Trans>
      </button>
      <button
        type="button"
        className={css.paperSegment}
        aria-pressed={paper}
        disabled={sw.busy}
        onClick={() => {
          if (!paper) void runSwitch(null);
        }}
      >
        <Trans>Paper</Trans>
      </button>
    </div>
  );
}
