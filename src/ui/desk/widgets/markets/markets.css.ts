import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { compactSelect } from "../widget-chrome.css";

export const root = style({ display: "flex", flexDirection: "column", height: "100%", fontSize: 12 });

export const toolbar = style({
  display: "flex",
  gap: 6,
  padding: 6,
  alignItems: "center",
  flexWrap: "wrap",
  borderBottom: `1px solid ${vars.color.border}`,
});

export const search = style({
  flex: "1 1 90px",
  minWidth: 70,
  background: vars.color.bg,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 4,
  padding: "4px 6px",
  fontSize: 12,
});

export const tabs = style({ display: "flex", gap: 2 });

export const tab = style({
  border: `1px solid transparent`,
  background: "transparent",
  color: vars.color.textMuted,
  borderRadius: 4,
  padding: "3px 6px",
  cursor: "pointer",
  fontSize: 12,
  selectors: {
    '&[aria-pressed="true"], &[aria-selected="true"]': {
      color: vars.color.text,
      borderColor: vars.color.border,
      background: vars.color.surfaceRaised,
    },
  },
});

export const select = style([compactSelect, { fontSize: 12, padding: "2px 4px" }]);

export const scroller = style({ flex: "1 1 auto", overflowY: "auto", minHeight: 0 });

export const table = style({ width: "100%", borderCollapse: "collapse", fontVariantNumeric: "tabular-nums" });

export const th = style({
  position: "sticky",
  top: 0,
  background: vars.color.surface,
  color: vars.color.textMuted,
  fontWeight: 500,
  textAlign: "right",
  padding: "4px 6px",
  whiteSpace: "nowrap",
  selectors: { "&:nth-child(-n+2)": { textAlign: "left" } },
});

export const sortButton = style({
  border: "none",
  background: "transparent",
  color: "inherit",
  font: "inherit",
  cursor: "pointer",
  padding: 0,
});

export const row = style({
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.color.surfaceRaised },
    '&[aria-current="true"]': { background: vars.color.surfaceRaised, boxShadow: `inset 2px 0 0 ${vars.color.accent}` },
  },
});

export const td = style({ padding: "3px 6px", textAlign: "right", whiteSpace: "nowrap" });
export const tdPair = style([td, { textAlign: "left", fontWeight: 600, color: vars.color.text }]);
export const tdStar = style([td, { textAlign: "left", width: 18, padding: "3px 0 3px 6px" }]);
export const quote = style({ color: vars.color.textMuted, fontWeight: 400 });
export const up = style({ color: vars.color.up });
export const down = style({ color: vars.color.down });

export const star = style({
  border: "none",
  background: "transparent",
  cursor: "pointer",
  color: vars.color.textMuted,
  fontSize: 13,
  padding: 0,
  selectors: { '&[aria-pressed="true"]': { color: vars.color.warning } },
});

export const orderButtons = style({ display: "inline-flex", gap: 2 });

export const status = style({ padding: 10, color: vars.color.textMuted });
