/**
 * Desk keyboard shortcuts, one table so the help dialog and the handler cannot disagree. Keys are
 * ignored while the user types in a field (except Escape), inside a dialog (S behind an order
 * confirmation would flip the order being confirmed), and never steal browser shortcuts that use
 * Ctrl/Meta/Alt.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

export type ShortcutAction =
  | "focus-order-form"
  | "buy"
  | "sell"
  | "cancel-all-market"
  | "switch-pair"
  | "toggle-edit"
  | "toggle-notifications"
  | "help";

export interface Shortcut {
  readonly action: ShortcutAction;
  /** The `KeyboardEvent.key` values that trigger it. */
  readonly keys: readonly string[];
  /** How the key is shown in the help dialog. */
  readonly label: string;
  readonly description: MessageDescriptor;
}

// Key labels are key names as printed on keyboards, the same in every language.
/* eslint-disable lingui/no-unlocalized-strings */
export const SHORTCUTS: readonly Shortcut[] = [
  { action: "focus-order-form", keys: ["f", "F"], label: "F", description: msg`Focus the order form` },
  { action: "buy", keys: ["b", "B"], label: "B", description: msg`Buy: switch the order form to buy` },
  { action: "sell", keys: ["s", "S"], label: "S", description: msg`Sell: switch the order form to sell` },
  {
    action: "cancel-all-market",
    keys: ["X"],
    label: "Shift+X",
    description: msg`Cancel all open orders on this market`,
  },
  { action: "switch-pair", keys: ["/", "k", "K"], label: "/ · K", description: msg`Switch pair (search markets)` },
  { action: "toggle-edit", keys: ["e", "E"], label: "E", description: msg`Edit the layout` },
  { action: "toggle-notifications", keys: ["n", "N"], label: "N", description: msg`Show or hide notifications` },
  { action: "help", keys: ["?"], label: "?", description: msg`Show these shortcuts` },
];
/* eslint-enable lingui/no-unlocalized-strings */

function typing(target: EventTarget | null): boolean {
  const el = target as Partial<Pick<HTMLElement, "isContentEditable" | "tagName">> | null;
  if (!el || typeof el.tagName !== "string") return false;
  if (el.isContentEditable === true) return true;
  return el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT";
}

function inDialog(target: EventTarget | null): boolean {
  const el = target as Partial<Pick<Element, "closest">> | null;
  // Native dialogs and the ARIA ones (the edit-order panel is a form with role="dialog").
  return typeof el?.closest === "function" && el.closest('dialog, [role="dialog"], [role="alertdialog"]') !== null;
}

/**
 * The action for a key event, or null. Shift+X needs the shift key; the others must not have it.
 * `modalOpen`: a modal dialog is showing (its keys are its own, wherever the focus is).
 */
export function shortcutFor(
  e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "target">,
  modalOpen = false,
): ShortcutAction | null {
  if (modalOpen || e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || inDialog(e.target)) return null;
  return SHORTCUTS.find((s) => s.keys.includes(e.key))?.action ?? null;
}
