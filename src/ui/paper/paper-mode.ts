/**
 * Paper mode in the app (docs/product-rules.md#paper-trading): whether this browser acts as the
 * user's paper account, which pages are live-only, and the demo-block dialog's state. Framework-free:
 * the header's switch, the banner and the dialog read it through valtio.
 *
 * The exchange says which account a token acts as (user info's `subaccountType`); until its answer
 * is in, a hint kept in storage at the switch says it, so a reload into paper does not first show
 * the live desk and banner-less header.
 */
import { proxy } from "valtio";
import { DEFAULT_PAIR, PAPER_ACCOUNT_TYPE, PAPER_DEFAULT_PAIR } from "../../protocol";
import { hasPathPrefix } from "../routing/paths";

/** The storage key of the hint: the paper account's owner id while in paper mode. */
export const PAPER_HINT_KEY = "paper_mode";

/**
 * Which live-only page the dialog is about. (A transfer to another account is live-only too, but
 * paper mode never offers one: a paper account belongs to no group.)
 */
export type LiveOnlyAction = "deposit" | "withdraw" | "api-keys";

export const demoBlock: { action: LiveOnlyAction | null } = proxy({ action: null });

/** Why a switch did not happen: the exchange could not be reached, or refused. */
export type SwitchError = "unreachable" | "refused";

/** A switch under way (the header's control and the banner's button both show it), or its failure. */
export const paperSwitch: { busy: boolean; error: SwitchError | null } = proxy({ busy: false, error: null });

export function showDemoBlock(action: LiveOnlyAction): void {
  demoBlock.action = action;
}

export function closeDemoBlock(): void {
  demoBlock.action = null;
}

/** The pages a paper account has no use of: money in and out, and API keys. */
const LIVE_ONLY_PAGES: readonly (readonly [string, LiveOnlyAction])[] = [
  ["/deposit", "deposit"],
  ["/withdraw", "withdraw"],
  ["/api", "api-keys"],
];

/** The live-only action a page is, or null for a page paper mode keeps. */
export function liveOnlyPage(path: string): LiveOnlyAction | null {
  return LIVE_ONLY_PAGES.find(([prefix]) => hasPathPrefix(path, prefix))?.[1] ?? null;
}

/** The part of user info paper mode reads. */
export interface PaperUser {
  readonly subaccountType: string | null;
  readonly groupId: number | null;
}

/**
 * The owner's id when the signed-in account is a paper account, else null: the exchange's answer
 * when it is in (`user`), the stored hint before.
 */
export function paperOwner(user: PaperUser | null, hint: number | null): number | null {
  if (user === null) return hint;
  return user.subaccountType === PAPER_ACCOUNT_TYPE ? user.groupId : null;
}

/** The desk's pair when the address names none. */
export function defaultDeskPair(paper: boolean): string {
  return paper ? PAPER_DEFAULT_PAIR : DEFAULT_PAIR;
}

export function loadPaperHint(storage: Pick<Storage, "getItem">): number | null {
  let raw: string | null;
  try {
    raw = storage.getItem(PAPER_HINT_KEY);
  } catch {
    return null;
  }
  const id = raw === null ? Number.NaN : Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function savePaperHint(storage: Pick<Storage, "setItem" | "removeItem">, ownerId: number | null): void {
  try {
    if (ownerId === null) storage.removeItem(PAPER_HINT_KEY);
    else storage.setItem(PAPER_HINT_KEY, String(ownerId));
  } catch {
    // Without storage the banner waits for the exchange's user info: nothing is lost but a moment.
  }
}
