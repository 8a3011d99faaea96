import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { panel as widgetPanel } from "../widget-chrome.css";

export const widget = widgetPanel;

export const toolbar = style({
  display: "flex",
  alignItems: "center",
  flexWrap: "wrap",
  gap: 6,
  padding: "4px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
});

export const spacer = style({ flex: "1 1 auto" });

/** Controls that wrap as one block and stay at the right end of the toolbar. */
export const endGroup = style({ display: "inline-flex", gap: 6, marginInlineStart: "auto" });

export const tabs = style({ display: "flex", gap: 2 });

export const tab = style({
  background: "transparent",
  border: "none",
  borderBottom: "2px solid transparent",
  color: vars.color.textMuted,
  padding: "4px 8px",
  font: "inherit",
  cursor: "pointer",
  selectors: {
    '&[aria-selected="true"]': { color: vars.color.text, borderBottomColor: vars.color.accent },
    "&:hover": { color: vars.color.text },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 },
  },
});

export const select = style({
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 4,
  padding: "2px 4px",
  font: "inherit",
});

export const check = style({ display: "inline-flex", alignItems: "center", gap: 4, color: vars.color.textMuted });

const buttonBase = style({
  font: "inherit",
  borderRadius: 4,
  padding: "3px 8px",
  cursor: "pointer",
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  whiteSpace: "nowrap",
  selectors: {
    "&:disabled": { opacity: 0.5, cursor: "default" },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 1 },
  },
});

export const button = styleVariants({
  plain: [buttonBase],
  danger: [buttonBase, { color: vars.color.danger, borderColor: vars.color.danger }],
  primary: [
    buttonBase,
    { background: vars.color.accent, color: vars.color.accentText, borderColor: vars.color.accent },
  ],
});

export const iconButton = style([
  buttonBase,
  { padding: "0 6px", lineHeight: "18px", background: "transparent", borderColor: "transparent" },
  { selectors: { "&:hover": { borderColor: vars.color.border, background: vars.color.surfaceRaised } } },
]);

export const scroller = style({ flex: "1 1 auto", minHeight: 0, overflow: "auto", position: "relative" });

export const table = style({
  width: "100%",
  borderCollapse: "collapse",
  fontVariantNumeric: "tabular-nums",
});

export const th = style({
  position: "sticky",
  top: 0,
  zIndex: 1,
  background: vars.color.surface,
  color: vars.color.textMuted,
  fontWeight: 500,
  textAlign: "start",
  padding: 0,
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap",
});

export const thEnd = style({ textAlign: "end" });

export const sortButton = style({
  all: "unset",
  boxSizing: "border-box",
  display: "block",
  width: "100%",
  padding: "4px 8px",
  cursor: "pointer",
  textAlign: "inherit",
  selectors: {
    "&:hover": { color: vars.color.text },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 },
  },
});

export const headLabel = style({ display: "block", padding: "4px 8px" });

export const sortMark = style({ marginInlineStart: 4, color: vars.color.accent });

export const td = style({
  padding: "3px 8px",
  whiteSpace: "nowrap",
  borderBottom: `1px solid ${vars.color.border}`,
});

export const tdEnd = style({ textAlign: "end" });

export const pinEnd = style({ position: "sticky", right: 0, background: vars.color.surface });
export const pinEndHead = style({ right: 0, zIndex: 2 });

globalStyle(`${table} tbody tr:hover td`, { background: vars.color.surfaceRaised });

export const up = style({ color: vars.color.up });
export const down = style({ color: vars.color.down });
export const muted = style({ color: vars.color.textMuted });

export const badge = style({
  display: "inline-block",
  marginInlineStart: 4,
  padding: "0 4px",
  borderRadius: 3,
  fontSize: 10,
  lineHeight: "14px",
  background: vars.color.surfaceRaised,
  color: vars.color.textMuted,
  border: `1px solid ${vars.color.border}`,
});

export const fill = style({ display: "inline-flex", alignItems: "center", gap: 6, justifyContent: "flex-end" });

export const fillBar = style({
  width: 36,
  height: 4,
  borderRadius: 2,
  background: vars.color.surfaceRaised,
  overflow: "hidden",
});

export const fillBarInner = style({ height: "100%", background: vars.color.accent });

export const footer = style({ display: "flex", gap: 8, justifyContent: "center", padding: 6 });

export const empty = style({ padding: 16, textAlign: "center", color: vars.color.textMuted });

export const prompt = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  justifyContent: "center",
  gap: 8,
  flex: "1 1 auto",
  padding: 16,
  textAlign: "center",
  color: vars.color.textMuted,
});

export const signIn = style([
  buttonBase,
  {
    textDecoration: "none",
    padding: "5px 14px",
    background: vars.color.accent,
    color: vars.color.accentText,
    borderColor: vars.color.accent,
  },
]);

export const panel = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: 8,
  padding: "6px 8px",
  background: vars.color.surfaceRaised,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const field = style({ display: "inline-flex", alignItems: "center", gap: 4, color: vars.color.textMuted });

export const input = style([
  select,
  { width: 110, padding: "3px 6px", selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } } },
]);

export const error = style({ color: vars.color.danger });

export const total = style({
  padding: "4px 8px",
  borderTop: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
});
