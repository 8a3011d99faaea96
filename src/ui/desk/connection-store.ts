/**
 * The public socket's state for the desk's status light, mirrored once from the worker (it sends a
 * state on every change and with its one-second health beat, never per message).
 */
import { proxy } from "valtio";
import type { ConnectionState } from "../../protocol";
import { market } from "../market/market";
import { followFeed } from "../shell/maintenance";

export const connectionStore: { state: ConnectionState | null } = proxy({ state: null });

let started = false;

export function watchConnection(): void {
  if (started) return;
  started = true;
  void market().connection((state) => {
    // The maintenance notice follows the socket live (20060/20061), on every page with a feed.
    followFeed(state);
    const prev = connectionStore.state;
    // Only a change of what the light shows is worth a render.
    if (
      prev &&
      prev.status === state.status &&
      prev.reconnectRetries === state.reconnectRetries &&
      prev.maintenance === state.maintenance &&
      prev.platform === state.platform &&
      prev.silenceMs > 20_000 === state.silenceMs > 20_000
    )
      return;
    connectionStore.state = state;
  });
}
