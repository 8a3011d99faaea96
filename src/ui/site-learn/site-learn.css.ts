/**
 * The guides' own pieces (live price card, numbered steps, the levels table, install
 * instructions); the page frame and prose come from the content-page kit (src/ui/site).
 */
import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

const PHONE = "screen and (max-width: 560px)";

export const priceCard = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "8px 24px",
  alignItems: "center",
  justifyContent: "space-between",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: "14px 16px",
  margin: "0 0 8px",
});
export const priceLabel = style({ margin: 0, color: vars.color.textMuted, fontSize: 14 });
export const priceValue = style({
  margin: "2px 0 0",
  fontSize: 30,
  fontWeight: 700,
  fontVariantNumeric: "tabular-nums",
  "@media": { [PHONE]: { fontSize: 26 } },
});
export const priceMeta = style({ margin: "2px 0 0", fontSize: 14, color: vars.color.textMuted });
export const up = style({ color: vars.color.up, fontWeight: 600 });
export const down = style({ color: vars.color.down, fontWeight: 600 });
export const stateText = style({ margin: 0, color: vars.color.textMuted });
export const errorText = style({ margin: 0, color: vars.color.text });
export const button = style({
  background: "transparent",
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "6px 12px",
  cursor: "pointer",
  font: "inherit",
});

/** Numbered steps: the number in a circle beside each step's heading and text. */
// The doubled class outweighs the kit's prose list indent (`.prose ol`): the numbers are the indent.
export const steps = style({
  listStyle: "none",
  counterReset: "step",
  selectors: { "&&": { margin: "8px 0 0", padding: 0 } },
});
export const step = style({
  counterIncrement: "step",
  position: "relative",
  paddingInlineStart: 48,
  margin: "0 0 22px",
  selectors: {
    "&::before": {
      content: "counter(step)",
      position: "absolute",
      insetInlineStart: 0,
      top: 0,
      width: 32,
      height: 32,
      borderRadius: "50%",
      display: "grid",
      placeItems: "center",
      fontWeight: 700,
      background: vars.color.accent,
      color: vars.color.accentText,
    },
  },
});
export const stepTitle = style({ fontSize: 18, margin: "4px 0 6px" });
globalStyle(`${step} p`, { margin: "0 0 8px" });

/** A wide table scrolls sideways on a phone instead of widening the page. */
export const tableWrap = style({ overflowX: "auto", margin: "8px 0 12px" });
export const table = style({ width: "100%", borderCollapse: "collapse", fontVariantNumeric: "tabular-nums" });
export const th = style({
  textAlign: "start",
  fontWeight: 600,
  fontSize: 13,
  color: vars.color.textMuted,
  padding: "8px 10px",
  borderBottom: `1px solid ${vars.color.border}`,
});
export const rowHead = style({
  textAlign: "start",
  padding: "8px 10px",
  borderBottom: `1px solid ${vars.color.border}`,
});
export const td = style({ padding: "8px 10px", borderBottom: `1px solid ${vars.color.border}` });
export const yes = style({ color: vars.color.success, fontWeight: 600 });
export const no = style({ color: vars.color.textMuted });

/** The tools list: cards in a responsive grid, one column on phones. */
export const toolList = style({
  listStyle: "none",
  // Doubled class: outweighs the kit's prose list indent (`.prose ul`).
  selectors: { "&&": { margin: "8px 0", padding: 0 } },
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(240px, 1fr))",
  gap: 14,
});
export const tool = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: "12px 14px",
  minWidth: 0,
});
export const toolTitle = style({ fontSize: 16, margin: "0 0 6px" });
export const toolBody = style({ margin: 0, color: vars.color.textMuted });
