/**
 * The phone desk's tabs (docs/product-rules.md#phone-desk): which exist, which one the arrow keys
 * reach from which, and the selected one kept across reloads in IndexedDB (idb-keyval), where the
 * desk keeps its other UI state (layouts, chart timeframes). The choice is per device, not synced
 * with the exchange: a phone's tab means nothing to the desktop grid.
 */
import { get, set } from "idb-keyval";
import { log } from "../../log";

/** The widths at which the desk is one column of tabs instead of the grid. */
export const PHONE_QUERY = "(max-width: 768px)";

export const PHONE_TABS = ["chart", "book", "trades", "form", "account"] as const;
export type PhoneTab = (typeof PHONE_TABS)[number];

export const DEFAULT_PHONE_TAB: PhoneTab = "chart";
export const PHONE_TAB_STORAGE_KEY = "desk-phone-tab";

export function isPhoneTab(v: unknown): v is PhoneTab {
  return typeof v === "string" && (PHONE_TABS as readonly string[]).includes(v);
}

/**
 * The tab a key moves to in a horizontal tablist (WAI-ARIA tabs pattern): left and right step and
 * wrap around, Home and End go to the ends; null for any other key.
 */
export function tabForKey(current: PhoneTab, key: string): PhoneTab | null {
  const i = PHONE_TABS.indexOf(current);
  const n = PHONE_TABS.length;
  switch (key) {
    case "ArrowRight":
      return PHONE_TABS[(i + 1) % n] ?? null;
    case "ArrowLeft":
      return PHONE_TABS[(i - 1 + n) % n] ?? null;
    case "Home":
      return PHONE_TABS[0];
    case "End":
      return PHONE_TABS[n - 1] ?? null;
    default:
      return null;
  }
}

/** The last read or chosen tab; undefined until the first read ends. */
let known: PhoneTab | undefined;

/** The tab if already known (this page load read or chose one), so a remount shows it at once. */
export function knownPhoneTab(): PhoneTab | undefined {
  return known;
}

/** Reads the stored tab; the default when none is stored, it is unusable, or storage fails. */
export async function loadPhoneTab(): Promise<PhoneTab> {
  if (known !== undefined) return known;
  let value: PhoneTab = DEFAULT_PHONE_TAB;
  try {
    const stored: unknown = await get(PHONE_TAB_STORAGE_KEY);
    if (isPhoneTab(stored)) value = stored;
  } catch (err) {
    log.warn("phone desk tab not readable", err);
  }
  // A tab chosen while the read was in flight wins over what the read found.
  known ??= value;
  return known;
}

/** Remembers the tab (in memory at once, in IndexedDB in the background). */
export function savePhoneTab(tab: PhoneTab): void {
  known = tab;
  set(PHONE_TAB_STORAGE_KEY, tab).catch((err: unknown) => log.warn("phone desk tab not saved", err));
}
