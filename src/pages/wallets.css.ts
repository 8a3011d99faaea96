import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";

export { hint, select, table } from "../ui/account/account-page.css";

export const page = style({ display: "grid", gap: 14, maxWidth: 1100, minWidth: 0 });
export const toolbar = style({ display: "flex", flexWrap: "wrap", gap: 12, alignItems: "end" });
export const spacer = style({ flex: 1 });
export const totals = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))",
  gap: 12,
  margin: 0,
});
export const total = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
  padding: "12px 16px",
  display: "grid",
  gap: 4,
  margin: 0,
});
export const totalLabel = style({ color: vars.color.textMuted, fontSize: 13 });
export const totalValue = style({ fontSize: 22, fontWeight: 600, fontVariantNumeric: "tabular-nums", margin: 0 });
export const scroll = style({
  overflowX: "auto",
  maxWidth: "100%",
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
});
export const caption = style({ textAlign: "start", padding: "10px 12px", color: vars.color.textMuted, fontSize: 13 });
export const th = style({
  textAlign: "start",
  fontWeight: 600,
  color: vars.color.textMuted,
  padding: "8px 12px",
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap",
});
export const td = style({
  padding: "8px 12px",
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "middle",
});
export const rowHead = style({ textAlign: "start", fontWeight: "normal" });
export const num = style({ textAlign: "end", fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" });
export const ccy = style({ display: "grid", gap: 2 });
export const ccyName = style({ color: vars.color.textMuted, fontSize: 12 });
export const button = style({
  font: "inherit",
  fontWeight: 600,
  padding: "8px 14px",
  borderRadius: 6,
  border: `1px solid ${vars.color.accent}`,
  background: vars.color.accent,
  color: vars.color.accentText,
  cursor: "pointer",
  selectors: { "&:disabled": { opacity: 0.6, cursor: "progress" } },
});
export const ghost = style({
  font: "inherit",
  padding: "8px 14px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: "transparent",
  color: vars.color.text,
  cursor: "pointer",
  selectors: { '&[aria-pressed="true"]': { borderColor: vars.color.accent, color: vars.color.accent } },
});
export const check = style({ display: "flex", gap: 8, alignItems: "center" });
export const dialogActions = style({ display: "flex", gap: 10, justifyContent: "flex-end", flexWrap: "wrap" });
export const dialogForm = style({ display: "grid", gap: 14 });
