/**
 * The funding account widgets' look: the order form's fields and the account tables' table, so
 * the funding desk reads like the trading desk; only the summary's figures are their own.
 */
import { style } from "@vanilla-extract/css";
import { vars } from "../../theme/contract.css";

export {
  check,
  field,
  label,
  message,
  options,
  root,
  segment,
  segmented,
  select,
  submitButton,
} from "../../desk/widgets/order-form/order-form.css";
export {
  button,
  empty,
  scroller,
  tab,
  table,
  tabs,
  td,
  tdEnd,
  th,
  thEnd,
  toolbar,
  widget,
} from "../../desk/widgets/tables/tables.css";
export { dialogActions } from "../../desk/desk.css";

export const input = style({
  width: "100%",
  boxSizing: "border-box",
  padding: "6px 8px",
  borderRadius: 4,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.bg,
  color: vars.color.text,
  font: "inherit",
  fontVariantNumeric: "tabular-nums",
  selectors: {
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 1 },
  },
});

// Fields side by side keep their own heights: a longer hint under one must not stretch the other's input.
export const row = style({ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 8, alignItems: "start" });

export const figures = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(130px, 1fr))",
  gap: "8px 12px",
  margin: 0,
  padding: 10,
});

export const figure = style({ display: "grid", gap: 2, margin: 0 });

export const figureLabel = style({ fontSize: 11.5, color: vars.color.textMuted });

export const figureValue = style({ margin: 0, fontVariantNumeric: "tabular-nums", fontWeight: 600 });

export const heading = style({ margin: 0, padding: "8px 10px 0", fontSize: 13, fontWeight: 700 });

export const warningText = style({ margin: "0 0 8px", maxWidth: 420, lineHeight: 1.4 });

/** The exchange's answer under a table, aligned with the cells. */
export const tableStatus = style({ margin: 0, padding: "4px 8px", fontSize: 11.5 });
