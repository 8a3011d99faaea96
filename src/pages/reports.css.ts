import { style } from "@vanilla-extract/css";
import { phoneCardTable } from "../ui/account/account-page.css";
import { vars } from "../ui/theme/contract.css";

export const page = style({ display: "grid", gap: 16, maxWidth: 1180, minWidth: 0 });
export const card = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
  padding: "16px 18px",
  display: "grid",
  gap: 12,
  minWidth: 0,
});
export const filters = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(170px, 1fr))",
  gap: 12,
  alignItems: "start",
});
export const field = style({ display: "grid", gap: 4, fontSize: 14, minWidth: 0 });
export const control = style({
  font: "inherit",
  fontSize: 14,
  padding: "6px 10px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  minWidth: 0,
  minHeight: 34,
  boxSizing: "border-box",
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const row = style({ display: "flex", flexWrap: "wrap", gap: 8, alignItems: "center" });
export const button = style({
  font: "inherit",
  fontSize: 14,
  padding: "6px 12px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  cursor: "pointer",
  selectors: { "&:disabled": { opacity: 0.6, cursor: "default" } },
});
export const primary = style([
  button,
  { background: vars.color.accent, color: vars.color.accentText, borderColor: vars.color.accent, fontWeight: 600 },
]);
export const muted = style({ color: vars.color.textMuted, margin: 0, fontSize: 14 });
export const error = style({ color: vars.color.danger, margin: 0, fontSize: 14 });

/**
 * On a phone each ledger row becomes a small card instead of a table wider than the screen: date
 * and amount, then currency, wallet, category and the balance, then the description.
 */
const NARROW = "screen and (max-width: 640px)";
export const scroll = style({ overflowX: "auto", maxWidth: "100%" });
export const { table, thead, tbody } = phoneCardTable(NARROW);
export const tr = style({
  "@media": {
    [NARROW]: {
      display: "flex",
      flexWrap: "wrap",
      gap: "2px 10px",
      padding: "8px 0",
      borderBottom: `1px solid ${vars.color.border}`,
    },
  },
});
export const th = style({
  textAlign: "start",
  fontWeight: 600,
  color: vars.color.textMuted,
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap",
});
export const thNum = style([th, { textAlign: "end" }]);
export const td = style({
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "top",
  "@media": { [NARROW]: { display: "block", padding: 0, borderBottom: 0 } },
});
export const date = style([
  td,
  {
    whiteSpace: "nowrap",
    fontVariantNumeric: "tabular-nums",
    "@media": { [NARROW]: { order: 1, flex: "1 1 50%", color: vars.color.textMuted, fontSize: 13 } },
  },
]);
export const where = style([td, { whiteSpace: "nowrap", "@media": { [NARROW]: { order: 3 } } }]);
const num = style({ textAlign: "end", whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" });
export const amount = style([td, num, { "@media": { [NARROW]: { order: 2, flex: "1 1 40%", fontWeight: 600 } } }]);
export const balance = style([
  td,
  num,
  { "@media": { [NARROW]: { order: 4, marginInlineStart: "auto", color: vars.color.textMuted } } },
]);
export const description = style([
  td,
  { overflowWrap: "anywhere", "@media": { [NARROW]: { order: 5, flexBasis: "100%" } } },
]);
export const credit = style({ color: vars.color.up });
export const debit = style({ color: vars.color.down });
export const checks = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 6, fontSize: 14 });
export const ok = style({ color: vars.color.success });
export const broken = style({ color: vars.color.danger });
