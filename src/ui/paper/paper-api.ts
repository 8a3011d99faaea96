/**
 * Switching between live and paper (server/paper.ts), through the session's transport: opening
 * the paper account (the exchange opens it once and answers the same record after), entering it,
 * and back to live with the sub-accounts' context switch. Each switch stores the new token for
 * every tab and reloads, as a sub-account switch does, so nothing of one account stays on screen as
 * the other's.
 */
import { PAPER_CONTEXT_PATH, PAPER_OPEN_PATH, paperAccountCodec } from "../../protocol";
import { authCall, switchAccount } from "../session";
import { contextToken } from "../subaccounts/api";
import { saveContext } from "../subaccounts/context";
import { deskPath } from "../desk/desk-paths";
import { hasPathPrefix } from "../routing/paths";
import { defaultDeskPair, savePaperHint, type SwitchError } from "./paper-mode";

const errorOf = (status: number): SwitchError => (status === 0 ? "unreachable" : "refused");

/** Opens (on the first call) and enters the paper account; the page reloads on the paper desk. */
export async function switchToPaper(win: Window): Promise<SwitchError | null> {
  const opened = await authCall(PAPER_OPEN_PATH, {});
  if (opened.status !== 200) return errorOf(opened.status);
  const account = paperAccountCodec.decode(opened.body);
  if (!account.ok) return "refused";
  const entered = await authCall(PAPER_CONTEXT_PATH, {});
  const token = Array.isArray(entered.body) && typeof entered.body[0] === "string" ? entered.body[0] : "";
  if (entered.status !== 200 || token === "") return errorOf(entered.status);
  saveContext(win, null);
  savePaperHint(win.localStorage, account.value.ownerId);
  // The reload lands on the paper desk: the live pair on screen is not one paper trades.
  win.history.replaceState(null, "", deskPath("t", defaultDeskPair(true)));
  switchAccount(win, token);
  return null;
}

/**
 * Back to the owner's live account. The page reloads where it is — the live-only page the
 * demo-block dialog was shown on is what the person came for — except on the desk, whose paper
 * pair live does not trade: that reloads on the live desk.
 */
export async function switchToLive(win: Window, ownerId: number): Promise<SwitchError | null> {
  const r = await contextToken(ownerId, false);
  if (!r.ok) return r.error.kind === "unreachable" ? "unreachable" : "refused";
  savePaperHint(win.localStorage, null);
  if (isDeskPath(win.location.pathname)) win.history.replaceState(null, "", deskPath("t", defaultDeskPair(false)));
  switchAccount(win, r.value);
  return null;
}

function isDeskPath(path: string): boolean {
  return ["/t", "/trading", "/tradedesk"].some((p) => hasPathPrefix(path, p));
}
