/**
 * Paper mode for components: the owner's id while this browser acts as the paper account (null in
 * live mode, signed out, or on a platform variant without paper trading), and the one switch the
 * header and the banner share.
 */
import { useEffect } from "react";
import { useSnapshot } from "valtio";
import { isFeatureEnabled } from "../../protocol";
import { auth, isLoggedIn } from "../auth";
import { platform } from "../config";
import { session } from "../session";
import { loadPaperHint, paperOwner, paperSwitch, savePaperHint, type SwitchError } from "./paper-mode";

/** Whether the platform variant offers paper trading at all. */
export function paperEnabled(): boolean {
  return isFeatureEnabled(platform(), "paper");
}

export function usePaperOwner(): number | null {
  const a = useSnapshot(auth);
  const s = useSnapshot(session);
  const on = paperEnabled() && isLoggedIn(a);
  // Read only when signed in: the prerendered public pages never are, and have no storage.
  const hint = on ? loadPaperHint(window.localStorage) : null;
  const owner = on ? paperOwner(s.user, hint) : null;
  // The exchange's answer replaces a hint it contradicts (a sign-in anew, a session that ended).
  const stale = on && s.user !== null && hint !== owner;
  useEffect(() => {
    if (stale) savePaperHint(window.localStorage, owner);
  }, [stale, owner]);
  return owner;
}

/** Switches to paper (`ownerId` null) or back to the owner's live account; the page reloads on success. */
export async function runSwitch(ownerId: number | null): Promise<void> {
  if (paperSwitch.busy) return;
  paperSwitch.busy = true;
  paperSwitch.error = null;
  let error: SwitchError | null;
  try {
    // The calls load with the first switch: every page carries the header, few switch.
    const { switchToLive, switchToPaper } = await import("./paper-api");
    error = ownerId === null ? await switchToPaper(window) : await switchToLive(window, ownerId);
  } catch {
    // The chunk did not load (offline, a deploy replaced it): as unreachable as the exchange.
    error = "unreachable";
  }
  // On success the page is reloading: the control stays busy until it goes.
  if (error !== null) {
    paperSwitch.busy = false;
    paperSwitch.error = error;
  }
}
