/**
 * The leave-page block for unsaved changes (docs/product-rules.md#unsaved-changes): while any part
 * of the page holds changes that are not saved (a layout being edited), closing or reloading the tab
 * asks the browser's own question, and following a link inside the app asks ours (LeaveDialog.tsx)
 * before the page goes. Leaving through the browser's back button is not held: the history entry is
 * already gone when the app hears of it.
 */
import { useEffect } from "react";
import { proxy } from "valtio";

export const leaveGuard = proxy({
  /** Whether anything holds unsaved changes now. */
  blocked: false,
  /** The in-app address a link asked to go to while blocked, waiting for the person's answer. */
  pending: null as string | null,
});

/** Each holder of unsaved changes, with what drops its changes when the person leaves anyway. */
const holders = new Map<symbol, () => void>();

/**
 * Marks the page as holding unsaved changes until the returned function is called; `discard`
 * drops them if the person chooses to leave without saving (so coming back does not find a
 * half-made edit still open).
 */
export function blockLeave(discard: () => void = () => {}): () => void {
  const token = Symbol("unsaved");
  holders.set(token, discard);
  leaveGuard.blocked = true;
  return () => {
    holders.delete(token);
    leaveGuard.blocked = holders.size > 0;
  };
}

/** Holds the block while `unsaved` is true and the component is mounted. */
export function useLeaveBlock(unsaved: boolean, discard?: () => void): void {
  useEffect(() => (unsaved ? blockLeave(discard) : undefined), [unsaved, discard]);
}

/** The person chose to leave without saving: every holder drops its changes. */
export function discardUnsaved(): void {
  for (const discard of [...holders.values()]) discard();
}

/**
 * A link inside the app was followed: true when it may go now; false when the question is asked
 * first (the dialog then goes on to `to`, or stays).
 */
export function mayLeaveFor(to: string): boolean {
  if (!leaveGuard.blocked) return true;
  leaveGuard.pending = to;
  return false;
}

/** The tab's own question on close and reload while something is unsaved. */
export function installLeaveGuard(win: Window): () => void {
  const onBeforeUnload = (e: BeforeUnloadEvent): void => {
    if (!leaveGuard.blocked) return;
    e.preventDefault();
    // Older Chromium shows the prompt only when returnValue is set; its text is the browser's own.
    e.returnValue = "";
  };
  win.addEventListener("beforeunload", onBeforeUnload);
  return () => win.removeEventListener("beforeunload", onBeforeUnload);
}
