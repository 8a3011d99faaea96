/** The liquidations and leaderboard widgets: a header, a scrolling table, a footer for paging. */
import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { compactSelect, panel } from "../widget-chrome.css";

export const root = style([panel, { position: "relative" }]);

export const header = style({
  display: "flex",
  alignItems: "center",
  flexWrap: "wrap",
  gap: 6,
  padding: "4px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  flex: "0 0 auto",
});

/** The widget's heading, for screen readers and headings navigation: the grid cell shows the title. */
export const title = style({
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  margin: 0,
});

export const spacer = style({ flex: "1 1 auto" });

export const select = style([compactSelect, { fontSize: 12 }]);

export const body = style({ overflow: "auto", minHeight: 0, flex: "1 1 auto" });

export const table = style({ width: "100%", borderCollapse: "collapse", fontVariantNumeric: "tabular-nums" });

export const th = style({
  position: "sticky",
  top: 0,
  background: vars.color.surface,
  color: vars.color.textMuted,
  fontWeight: 500,
  textAlign: "start",
  padding: "3px 8px",
  whiteSpace: "nowrap",
});

export const td = style({ padding: "2px 8px", whiteSpace: "nowrap", borderTop: `1px solid ${vars.color.border}` });

export const num = style({ textAlign: "end" });

export const own = style({ background: vars.color.bg, fontWeight: 600 });

export const positive = style({ color: vars.color.positive });
export const negative = style({ color: vars.color.negative });

export const note = style({ color: vars.color.textMuted, margin: 0, padding: "8px" });

export const error = style({ color: vars.color.danger, margin: 0, padding: "4px 8px" });

export const footer = style({
  display: "flex",
  alignItems: "center",
  gap: 8,
  padding: "4px 8px",
  borderTop: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  flex: "0 0 auto",
});

export const button = style({
  background: vars.color.bg,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 4,
  padding: "2px 8px",
  cursor: "pointer",
  ":disabled": { opacity: 0.6, cursor: "default" },
});

export const input = style([compactSelect, { padding: "2px 6px", minWidth: 0, width: "10em" }]);

export const form = style({ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 6 });
