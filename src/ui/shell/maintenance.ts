/**
 * Platform maintenance state. Sources: GET /v2/platform/status at start ([0] = maintenance), a
 * maintenance refusal of any call (api-notice.ts) and, once the market-data worker exists, its
 * socket live (`followFeed`: the welcome's platform status, then the info events 20060/20061), so
 * the notice comes and goes with the window while a page is open. A dismissal is remembered until
 * the platform is back to normal, so the next maintenance window is announced again.
 */
import { get, set } from "idb-keyval";
import { proxy } from "valtio";
import { platformStatusCodec, type ConnectionState } from "../../protocol";
import { log } from "../log";

export const MAINTENANCE_DISMISSED_KEY = "maintenance-dismissed";

export const maintenance = proxy({ active: false, dismissed: false });

export async function restoreMaintenanceDismissal(): Promise<void> {
  try {
    maintenance.dismissed = (await get(MAINTENANCE_DISMISSED_KEY)) === true;
  } catch (err) {
    log.warn("maintenance dismissal could not be read", err);
  }
}

export function setMaintenance(active: boolean): void {
  maintenance.active = active;
  if (!active && maintenance.dismissed) {
    maintenance.dismissed = false;
    set(MAINTENANCE_DISMISSED_KEY, false).catch((err: unknown) => log.warn("maintenance state not saved", err));
  }
}

export function dismissMaintenance(): void {
  maintenance.dismissed = true;
  set(MAINTENANCE_DISMISSED_KEY, true).catch((err: unknown) => log.warn("maintenance state not saved", err));
}

/** What the feed said last (null: nothing yet), so only its changes move the notice. */
let feedSaid: boolean | null = null;

/**
 * Follows the worker's public socket (src/ui/desk/connection-store.ts hands every state here):
 * entering maintenance shows the notice, leaving it hides it — the worker resubscribes every
 * channel then (docs/protocol.md#info-codes), so the feed resumes by itself. Before the socket's
 * welcome (platform -1) the socket knows nothing, and the page-load status stands.
 */
export function followFeed(state: Pick<ConnectionState, "maintenance" | "platform">): void {
  if (state.platform === -1 || feedSaid === state.maintenance) return;
  feedSaid = state.maintenance;
  setMaintenance(state.maintenance);
}

/** Reads the platform status body: `[1]` operative, `[0]` maintenance; anything else is unknown. */
export function platformStatusFrom(body: unknown): boolean | null {
  const d = platformStatusCodec.decode(body);
  if (!d.ok || (d.value.status !== 0 && d.value.status !== 1)) return null;
  return d.value.status === 0;
}
