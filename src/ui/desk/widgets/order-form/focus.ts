import { fillOrderForm } from "../../desk-state";

/**
 * Brings the order form's focus to a field (a keyboard shortcut, a "trade" button elsewhere on the
 * desk) without changing what it holds: the form applies the shared draft, which it keeps in step
 * with what the user typed, and focuses the field.
 */
export function focusOrderForm(field: "price" | "amount" = "amount"): void {
  fillOrderForm({ focus: field, origin: "keyboard" });
}
