/**
 * The archive's own styles: its tabs. Everything else — cards, filters, the table that becomes
 * cards on a phone — is the reports page's (reports.css.ts), shared.
 */
import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";

export const tabs = style({
  display: "flex",
  flexWrap: "wrap",
  gap: 4,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const tab = style({
  font: "inherit",
  fontSize: 15,
  padding: "8px 14px",
  border: 0,
  borderBottom: "2px solid transparent",
  marginBottom: -1,
  background: "transparent",
  color: vars.color.textMuted,
  cursor: "pointer",
  selectors: {
    '&[aria-selected="true"]': { color: vars.color.text, borderBottomColor: vars.color.accent, fontWeight: 600 },
    "&:focus-visible": { outline: `2px solid ${vars.color.accent}`, outlineOffset: -2 },
  },
});
/** The side word next to an amount: the colour is not the only cue. */
export const side = style({ fontWeight: 600 });

/**
 * On a phone a row is a card without the table's header: a number that is not the row's amount
 * carries its column's name before it ("Price 1,000"), else two bare numbers could be confused.
 */
export const labelled = style({
  "@media": {
    "screen and (max-width: 640px)": {
      selectors: { "&::before": { content: "attr(data-label) ' '", color: vars.color.textMuted } },
    },
  },
});
