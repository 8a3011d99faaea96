import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";

export const page = style({ display: "grid", gap: 12, maxWidth: 1040 });
export const card = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
  padding: "16px 18px",
  display: "grid",
  gap: 12,
  minWidth: 0,
});
export const h2 = style({ margin: 0, fontSize: 17 });
export const row = style({ display: "flex", flexWrap: "wrap", gap: 12, alignItems: "end" });
export const check = style({ display: "flex", gap: 8, alignItems: "center", fontSize: 14 });
export const scroll = style({ overflowX: "auto", maxWidth: "100%" });
export const table = style({ borderCollapse: "collapse", width: "100%", fontSize: 14 });
export const th = style({
  textAlign: "start",
  fontWeight: 600,
  color: vars.color.textMuted,
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap",
});
export const num = style({ textAlign: "end", fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" });
export const td = style({
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "middle",
});
export const actions = style({ display: "flex", flexWrap: "wrap", gap: 8 });
export const badge = style({
  display: "inline-block",
  fontSize: 12,
  fontWeight: 600,
  padding: "2px 8px",
  borderRadius: 999,
  whiteSpace: "nowrap",
  border: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
});
export const readOnly = style({ color: vars.color.danger, borderColor: vars.color.danger });
export const select = style({
  font: "inherit",
  padding: "8px 10px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
});
export const success = style({ color: vars.color.success, fontWeight: 600, margin: 0 });
