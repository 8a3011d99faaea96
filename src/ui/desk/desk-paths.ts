/**
 * Desk addresses: `/tradedesk[/PAIR]` (public, the customizable grid), `/t/PAIR` and `/trading/PAIR`
 * (the signed-in trading area). Switching pair keeps the user in the area they are in.
 */
import { DEFAULT_PAIR, splitPair } from "../../protocol";
import { hasPathPrefix, isTradeDeskPath, TRADEDESK_PREFIX } from "../routing/paths";

export type DeskArea = "tradedesk" | "t" | "trading";

export function deskAreaOf(path: string): DeskArea {
  if (hasPathPrefix(path, "/trading")) return "trading";
  if (hasPathPrefix(path, "/t")) return "t";
  return "tradedesk";
}

/** The pair named in a desk path, upper-cased and checked; the default pair when absent or invalid. */
export function pairFromPath(path: string, fallback: string = DEFAULT_PAIR): string {
  const segments = path.split("/").filter((s) => s !== "");
  const raw = segments[1];
  if (raw === undefined) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw).toUpperCase();
  } catch {
    return fallback;
  }
  return /^[A-Z0-9]{3,}(:[A-Z0-9]{3,})?$/.test(decoded) && splitPair(decoded) ? decoded : fallback;
}

export function deskPath(area: DeskArea, pair: string): string {
  const prefix = area === "tradedesk" ? TRADEDESK_PREFIX : `/${area}`;
  return `${prefix}/${pair}`;
}

/**
 * Whether the grid may be rearranged (docs/product-rules.md#trading-allowed: enabled where trading is
 * allowed and in the trading-desk area): on `/tradedesk`, signed in, with credentials that may write orders
 * (`canTrade` false: the auth reply said orders write 0, e.g. a read-only API key; undefined:
 * not said, allowed).
 */
export function gridEditable(path: string, signedIn: boolean, canTrade: boolean | undefined): boolean {
  return isTradeDeskPath(path) && signedIn && canTrade !== false;
}
