/**
 * The withdrawal form, its travel-rule and second-factor parts, the mailed link's panel and the
 * list's cancel button; the shared account look (account-page.css) and the shell's buttons reused.
 */
import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export { alert, card, danger, field, hint, muted, select, success } from "../account/account-page.css";
export { button, ghostButton as ghost } from "../shell/shell.css";

export const form = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
  padding: 16,
  display: "grid",
  gap: 16,
  maxWidth: 820,
  minWidth: 0,
});
export const input = style({
  font: "inherit",
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "8px 10px",
  minWidth: 0,
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const fieldset = style({ border: 0, margin: 0, padding: 0, display: "grid", gap: 8, minWidth: 0 });
export const legend = style({ padding: 0, margin: "0 0 4px", fontWeight: 600, fontSize: 16 });
export const choice = style({ display: "flex", gap: 8, alignItems: "center", minHeight: 32 });
/** A text field beside its button (the amount and "Max", the code and "Text me a code"). */
export const inputRow = style({ display: "flex", gap: 8, alignItems: "stretch", flexWrap: "wrap" });
export const grow = style({ flex: "1 1 12rem" });
export const problem = style({ color: vars.color.danger, fontSize: 13, margin: 0 });
export const ok = style({ color: vars.color.success, fontSize: 13, margin: 0, overflowWrap: "anywhere" });
export const facts = style({
  display: "grid",
  gap: 10,
  margin: 0,
  gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))",
});
export const fact = style({ display: "grid", gap: 2, minWidth: 0 });
export const term = style({ color: vars.color.textMuted, fontSize: 13 });
export const value = style({ margin: 0, fontVariantNumeric: "tabular-nums", overflowWrap: "anywhere" });
export const mono = style({ fontFamily: vars.font.mono, fontSize: 13, overflowWrap: "anywhere", margin: 0 });
export const note = style({
  margin: 0,
  padding: "10px 12px",
  borderRadius: 8,
  border: `1px solid ${vars.color.warning}`,
  color: vars.color.text,
});
export const actions = style({ display: "flex", gap: 10, flexWrap: "wrap", alignItems: "center" });
export const confirm = style({ maxWidth: 820, minWidth: 0 });
export const confirmFacts = style({ display: "grid", gap: 8, margin: 0 });
