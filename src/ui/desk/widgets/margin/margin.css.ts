import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { panel } from "../widget-chrome.css";

export const root = style([panel, { overflow: "auto", padding: "6px 10px", gap: 8 }]);

/** The account's and the pair's figures side by side when the widget is wide enough, else stacked. */
export const columns = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(180px, 1fr))",
  gap: "8px 16px",
  alignItems: "start",
});

export const section = style({ display: "flex", flexDirection: "column", gap: 2 });

export const heading = style({
  margin: 0,
  fontSize: 11,
  fontWeight: 600,
  color: vars.color.textMuted,
  textTransform: "uppercase",
  letterSpacing: "0.04em",
});

/** Label left, value right, one line per figure. */
export const list = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) auto",
  columnGap: 12,
  rowGap: 2,
  margin: 0,
});

export const term = style({ color: vars.color.textMuted });

export const value = style({ margin: 0, textAlign: "end", fontVariantNumeric: "tabular-nums" });

export const note = style({ margin: 0, color: vars.color.textMuted });

export const warning = style({
  margin: 0,
  padding: "4px 8px",
  borderRadius: 4,
  border: `1px solid ${vars.color.danger}`,
  color: vars.color.danger,
  fontWeight: 600,
});
