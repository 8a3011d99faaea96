import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";

export const ROW_HEIGHT = 20;

export const root = style({
  height: "100%",
  minHeight: 0,
  minWidth: 0,
  display: "flex",
  flexDirection: "column",
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: 12,
  containerType: "inline-size",
});

export const tabbar = style({
  display: "flex",
  alignItems: "center",
  gap: 4,
  padding: "4px 6px",
  borderBottom: `1px solid ${vars.color.border}`,
  flex: "0 0 auto",
});

export const tab = style({
  background: "transparent",
  border: "none",
  borderBottom: "2px solid transparent",
  color: vars.color.textMuted,
  font: "inherit",
  fontSize: 12,
  padding: "2px 8px",
  cursor: "pointer",
  selectors: {
    '&[aria-selected="true"]': { color: vars.color.text, borderBottomColor: vars.color.accent },
    "&:hover": { color: vars.color.text },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 },
  },
});

export const spacer = style({ flex: "1 1 auto" });

const columns = "1.1fr 1fr 0.9fr";
const ownColumns = "1.1fr 1fr 1fr 0.9fr";

export const heads = style({
  display: "grid",
  gridTemplateColumns: columns,
  flex: "0 0 auto",
  height: 18,
  alignItems: "center",
  color: vars.color.textMuted,
  fontSize: 11,
  borderBottom: `1px solid ${vars.color.border}`,
  overflowY: "hidden",
  scrollbarGutter: "stable",
  scrollbarWidth: "thin",
});

export const ownHeads = style({ gridTemplateColumns: ownColumns });

export const head = style({ padding: "0 6px", textAlign: "right", whiteSpace: "nowrap", overflow: "hidden" });
export const headLeft = style({ textAlign: "left" });

export const panel = style({
  flex: "1 1 auto",
  minHeight: 0,
  overflowY: "auto",
  overflowX: "hidden",
  scrollbarGutter: "stable",
  scrollbarWidth: "thin",
  position: "relative",
  fontFamily: vars.font.mono,
  fontVariantNumeric: "tabular-nums",
});

export const tabs = style({ display: "flex", alignItems: "center", gap: 4 });

export const row = style({
  display: "grid",
  gridTemplateColumns: columns,
  alignItems: "center",
  height: ROW_HEIGHT,
  contain: "layout style",
  selectors: {
    "&:hover": { background: vars.color.surfaceRaised },
    // A row with no trade painted yet keeps its place but is not there for a screen reader (an
    // empty price button would be a button without a name).
    "&[data-empty]": { visibility: "hidden" },
  },
});

export const ownRow = style({ gridTemplateColumns: ownColumns });

export const cell = style({
  padding: "0 6px",
  textAlign: "right",
  whiteSpace: "nowrap",
  overflow: "hidden",
  lineHeight: `${ROW_HEIGHT}px`,
  minWidth: 0,
});

export const muted = style({ color: vars.color.textMuted });

export const price = style({
  background: "transparent",
  border: "none",
  font: "inherit",
  fontWeight: 600,
  textAlign: "left",
  cursor: "pointer",
  height: ROW_HEIGHT,
  display: "block",
  width: "100%",
  paddingTop: 0,
  paddingBottom: 0,
  lineHeight: `${ROW_HEIGHT}px`,
  color: vars.color.text,
  selectors: {
    '[data-dir="up"] > &': { color: vars.color.up },
    '[data-dir="down"] > &': { color: vars.color.down },
    "&:hover": { textDecoration: "underline" },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 },
  },
});

export const up = style({ color: vars.color.up });
export const down = style({ color: vars.color.down });

export const note = style({
  padding: 16,
  textAlign: "center",
  color: vars.color.textMuted,
  fontFamily: vars.font.body,
});
