/**
 * The look the deposit and withdrawal pages share: the currency and wallet choices, the network
 * choice, the balance line and the movements table in its scroll region.
 */
import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export { alert, field, muted, select } from "../account/account-page.css";

export const choices = style({
  display: "grid",
  gap: 12,
  gridTemplateColumns: "repeat(auto-fit, minmax(200px, 1fr))",
  alignItems: "end",
  maxWidth: 820,
  minWidth: 0,
});
export const wide = style({ width: "100%" });
export const networks = style({ border: 0, margin: 0, padding: 0, display: "grid", gap: 6, minWidth: 0 });
export const legend = style({ padding: 0, marginBottom: 4 });
export const radios = style({ display: "flex", flexWrap: "wrap", gap: 8 });
export const radio = style({
  display: "flex",
  gap: 6,
  alignItems: "center",
  padding: "6px 10px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
});
/** A grid item holding the table's scroll region: without it the table's width would widen the page. */
export const section = style({ minWidth: 0, display: "grid", gap: 8 });
export const h2 = style({ fontSize: 20, margin: "20px 0 0" });
export const scroll = style({
  overflowX: "auto",
  maxWidth: "100%",
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
});
export const table = style({ borderCollapse: "collapse", width: "100%", fontSize: 14 });
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
export const num = style({ textAlign: "end", fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" });
export const mono = style({ fontFamily: vars.font.mono, fontSize: 12, overflowWrap: "anywhere" });
