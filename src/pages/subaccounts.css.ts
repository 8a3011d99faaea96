import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";

export {
  cardShrinks as card,
  h2,
  pill as badge,
  scroll,
  select,
  success,
  table,
  th,
} from "../ui/account/account-page.css";

export const page = style({ display: "grid", gap: 12, maxWidth: 1040 });
export const row = style({ display: "flex", flexWrap: "wrap", gap: 12, alignItems: "end" });
export const check = style({ display: "flex", gap: 8, alignItems: "center", fontSize: 14 });
export const num = style({ textAlign: "end", fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" });
export const td = style({
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "middle",
});
export const actions = style({ display: "flex", flexWrap: "wrap", gap: 8 });
export const readOnly = style({ color: vars.color.danger, borderColor: vars.color.danger });
