import { useLingui } from "@lingui/react/macro";
import { useSyncExternalStore } from "react";
import { useSnapshot } from "valtio";
import { connectionStore } from "./connection-store";
import * as css from "./desk.css";
import { deskFeedState, feedLabel } from "./feed-status";
import { deskFeeds } from "./widgets/book/feed-health";

/**
 * The header's light: the socket's state and the worst of the desk's channels, read as every feed
 * badge reads its own (`feed-status.ts`), so the two never disagree. It renders only when the state
 * it shows changes, however often the channels' figures tick.
 */
export function ConnectionLight() {
  const { t, i18n } = useLingui();
  const c = useSnapshot(connectionStore).state;
  // The snapshot is the state's name, a string: React skips the render while it stays the same.
  const state = useSyncExternalStore(deskFeeds.subscribe, () => deskFeedState(c, deskFeeds.summaries()));
  return (
    <span className={css.light} data-state={state} data-testid="connection-light" role="status">
      {i18n._(feedLabel(state))}
      {c?.maintenance ? ` · ${t`Maintenance`}` : ""}
    </span>
  );
}
