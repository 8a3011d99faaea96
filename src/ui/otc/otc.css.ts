import { style } from "@vanilla-extract/css";
import { th } from "../account/account-page.css";
import { vars } from "../theme/contract.css";

// The account pages' card, headings, hints and alerts, and the conversion dialog's quote panel:
// the same look for the same shape (a form, a quote that counts down, an outcome).
export {
  alert,
  card,
  cardShrinks,
  field,
  h2,
  hint,
  muted,
  pill,
  scroll,
  select,
  success,
  table,
  th,
} from "../account/account-page.css";
export { button, ghost } from "../api-keys/api-keys.css";
export { actions, figure, figures, quote, receive, term, timer } from "../conversions/conversions.css";

export const page = style({ display: "grid", gap: 16, maxWidth: 1180, minWidth: 0 });
/** The request (form, quote, outcome) beside the balances on a wide screen, above them on a phone. */
export const top = style({
  display: "grid",
  gap: 16,
  gridTemplateColumns: "minmax(0, 2fr) minmax(0, 1fr)",
  alignItems: "start",
  "@media": { "screen and (max-width: 860px)": { gridTemplateColumns: "minmax(0, 1fr)" } },
});
export const form = style({ display: "grid", gap: 14 });
export const row = style({ display: "grid", gap: 12, gridTemplateColumns: "repeat(auto-fit, minmax(160px, 1fr))" });
export const input = style({
  font: "inherit",
  padding: "8px 10px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.bg,
  color: vars.color.text,
  minWidth: 0,
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
/** Buy and sell as two radio buttons drawn as a segmented control. */
export const sides = style({ border: 0, margin: 0, padding: 0, display: "grid", gap: 4, minWidth: 0 });
export const legend = style({ padding: 0, marginBottom: 4 });
export const segments = style({ display: "flex", gap: 0 });
export const segment = style({
  flex: 1,
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  gap: 6,
  padding: "8px 10px",
  border: `1px solid ${vars.color.border}`,
  cursor: "pointer",
  selectors: {
    "&:first-child": { borderRadius: "6px 0 0 6px" },
    "&:last-child": { borderRadius: "0 6px 6px 0", borderLeft: 0 },
    "&:has(input:checked)": { background: vars.color.surfaceRaised, fontWeight: 600 },
    "&:has(input:focus-visible)": { outline: `2px solid ${vars.color.accent}`, outlineOffset: 2 },
  },
});
export const balances = style({ margin: 0, display: "grid", gridTemplateColumns: "max-content 1fr", gap: "6px 16px" });
export const thNum = style([th, { textAlign: "end" }]);
export const td = style({ padding: "6px 8px", borderBottom: `1px solid ${vars.color.border}`, whiteSpace: "nowrap" });
export const num = style([td, { textAlign: "end", fontVariantNumeric: "tabular-nums" }]);
export const buy = style({ color: vars.color.up, fontWeight: 600 });
export const sell = style({ color: vars.color.down, fontWeight: 600 });
