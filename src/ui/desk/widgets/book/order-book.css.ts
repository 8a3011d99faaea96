import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { overlayNote, panel } from "../widget-chrome.css";

import { ROW_HEIGHT } from "./book-layout";

// The root is the size container of the health badge (a narrow book shows only its dot).
export const root = style([panel, { minWidth: 0, position: "relative", containerType: "inline-size" }]);

export const toolbar = style({
  display: "flex",
  alignItems: "center",
  gap: 6,
  padding: "4px 6px",
  borderBottom: `1px solid ${vars.color.border}`,
  flexWrap: "wrap",
  flex: "0 0 auto",
});

export const group = style({
  display: "inline-flex",
  border: `1px solid ${vars.color.border}`,
  borderRadius: 5,
  overflow: "hidden",
});

export const toggle = style({
  background: "transparent",
  color: vars.color.textMuted,
  border: "none",
  padding: "2px 6px",
  font: "inherit",
  fontSize: 11,
  lineHeight: "16px",
  cursor: "pointer",
  display: "inline-flex",
  alignItems: "center",
  gap: 3,
  selectors: {
    "& + &": { borderLeft: `1px solid ${vars.color.border}` },
    "&:hover": { color: vars.color.text, background: vars.color.surfaceRaised },
    '&[aria-pressed="true"]': { color: vars.color.accentText, background: vars.color.accent },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 },
  },
});

export const icon = style({ width: 14, height: 14, display: "block", fill: "currentColor" });

export const select = style({
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 5,
  font: "inherit",
  fontSize: 11,
  padding: "1px 2px",
  height: 22,
});

export const spacer = style({ flex: "1 1 auto" });

export const spreadBar = style({
  display: "flex",
  justifyContent: "center",
  alignItems: "center",
  gap: 6,
  height: ROW_HEIGHT,
  color: vars.color.textMuted,
  fontVariantNumeric: "tabular-nums",
  borderBottom: `1px solid ${vars.color.border}`,
  flex: "0 0 auto",
});

export const spreadValue = style({ color: vars.color.text, fontFamily: vars.font.mono });

/** Column heads are placed by the same geometry as the drawn cells (book-columns.ts). */
export const heads = style({
  position: "relative",
  flex: "0 0 auto",
  color: vars.color.textMuted,
  fontSize: 11,
  height: 18,
  alignItems: "center",
  borderBottom: `1px solid ${vars.color.border}`,
});

export const scroller = style({
  position: "absolute",
  inset: 0,
  overflowY: "auto",
  overflowX: "hidden",
  contain: "strict",
  scrollbarGutter: "stable",
  scrollbarWidth: "thin",
  outline: "none",
  selectors: {
    "&:focus-visible": { boxShadow: `inset 0 0 0 2px ${vars.color.focus}` },
    '&[data-over="level"]': { cursor: "pointer" },
  },
});

/** The rows are drawn on this canvas, under the (transparent) scroller that takes the input. */
export const canvas = style({
  position: "absolute",
  top: 0,
  left: 0,
  pointerEvents: "none",
});

export const listSpacer = style({ width: "100%" });

export const headCell = style({
  position: "absolute",
  top: 0,
  height: 18,
  lineHeight: "18px",
  overflow: "hidden",
  whiteSpace: "nowrap",
  textOverflow: "ellipsis",
  boxSizing: "border-box",
});

/** Read by screen readers (the keyboard cursor's level), not shown. */
export const srOnly = style({
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
});

export const badge = style({
  display: "inline-flex",
  alignItems: "center",
  gap: 5,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: "1px 7px",
  fontSize: 11,
  lineHeight: "16px",
  background: "transparent",
  color: vars.color.textMuted,
  font: "inherit",
  cursor: "pointer",
  fontVariantNumeric: "tabular-nums",
  selectors: {
    '&[data-health="bad"]': { borderColor: vars.color.danger, color: vars.color.danger },
    '&[data-health="warn"]': { borderColor: vars.color.warning, color: vars.color.warning },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}` },
  },
});

/** In a narrow widget a healthy badge is just its dot; a warning or a fault always says what it is. */
export const badgeText = style({});
globalStyle(`${badge}[data-health="ok"] > ${badgeText}`, {
  "@container": { "(max-width: 500px)": { display: "none" } },
});

export const dot = style({ width: 7, height: 7, borderRadius: "50%", flex: "0 0 auto" });

export const dotLevel = styleVariants({
  ok: { background: vars.color.success },
  warn: { background: vars.color.warning },
  bad: { background: vars.color.danger },
});

export const badgeWrap = style({ position: "relative" });

export const details = style({
  position: "absolute",
  right: 0,
  top: "calc(100% + 4px)",
  zIndex: 20,
  margin: 0,
  padding: "8px 10px",
  display: "grid",
  gridTemplateColumns: "auto auto",
  columnGap: 12,
  rowGap: 2,
  minWidth: 200,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  boxShadow: "0 6px 18px rgba(0,0,0,0.25)",
  fontSize: 11,
  whiteSpace: "nowrap",
});

export const detailsTerm = style({ color: vars.color.textMuted });
export const detailsValue = style({ margin: 0, textAlign: "right", fontVariantNumeric: "tabular-nums" });
export const detailsBad = style({ color: vars.color.danger, fontWeight: 600 });

export const empty = overlayNote;

export const listArea = style({
  position: "relative",
  flex: "1 1 auto",
  minHeight: 0,
});
