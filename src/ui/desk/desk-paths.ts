/**
 * Desk addresses: `/tradedesk[/PAIR]` (public, the customizable grid), `/t/PAIR` and `/trading/PAIR`
 * (the signed-in trading area). Switching pair keeps the user in the area they are in.
 */
import { DEFAULT_PAIR, parseDeskMarket, type DeskMarket } from "../../protocol";
import { hasPathPrefix, isTradeDeskPath, TRADEDESK_PREFIX } from "../routing/paths";

export type DeskArea = "tradedesk" | "t" | "trading";

export function deskAreaOf(path: string): DeskArea {
  if (hasPathPrefix(path, "/trading")) return "trading";
  if (hasPathPrefix(path, "/t")) return "t";
  return "tradedesk";
}

/**
 * What a desk path names: the default pair when it names nothing (paper mode's own:
 * src/ui/paper), otherwise the market its segment
 * reads as (`parseDeskMarket`: a pair, a funding currency, or unreadable text). Whether that market
 * exists is for the exchange's pair list to say (`KnownMarket.tsx`).
 */
export function deskMarketFromPath(path: string, defaultPair: string = DEFAULT_PAIR): DeskMarket {
  const segments = path.split("/").filter((s) => s !== "");
  const raw = segments[1];
  if (raw === undefined) return { kind: "pair", pair: defaultPair };
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return { kind: "invalid", text: raw };
  }
  return parseDeskMarket(decoded);
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
