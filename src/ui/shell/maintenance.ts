/**
 * Platform maintenance state. Sources: GET /v2/platform/status at start ([0] = maintenance) and,
 * once the market-data worker exists, its info events 20060/20061. A dismissal is remembered until
 * the platform is back to normal, so the next maintenance window is announced again.
 */
import { get, set } from "idb-keyval";
import { proxy } from "valtio";
import { platformStatusCodec } from "../../protocol";
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

/** Reads the platform status body: `[1]` operative, `[0]` maintenance; anything else is unknown. */
export function platformStatusFrom(body: unknown): boolean | null {
  const d = platformStatusCodec.decode(body);
  if (!d.ok || (d.value.status !== 0 && d.value.status !== 1)) return null;
  return d.value.status === 0;
}
