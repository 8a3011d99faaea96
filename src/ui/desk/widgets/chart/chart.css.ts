import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { overlayNote, panel } from "../widget-chrome.css";

/** Height of the toolbar above the plot; part of the widget's default size. */
export const TOOLBAR_PX = 28;

export const root = panel;

export const toolbar = style({
  display: "flex",
  alignItems: "center",
  gap: 6,
  flex: `0 0 ${TOOLBAR_PX}px`,
  height: TOOLBAR_PX,
  padding: "0 6px",
  borderBottom: `1px solid ${vars.color.border}`,
  overflowX: "auto",
  overflowY: "hidden",
  whiteSpace: "nowrap",
  boxSizing: "border-box",
});

export const group = style({ display: "flex", alignItems: "center", gap: 2 });

export const separator = style({ width: 1, alignSelf: "stretch", margin: "5px 2px", background: vars.color.border });

export const tfButton = style({
  border: "none",
  background: "transparent",
  color: vars.color.textMuted,
  font: "inherit",
  fontFamily: vars.font.mono,
  fontSize: 11,
  padding: "2px 5px",
  borderRadius: 4,
  cursor: "pointer",
  selectors: {
    "&:hover": { color: vars.color.text, background: vars.color.surfaceRaised },
    '&[aria-pressed="true"]': { color: vars.color.accentText, background: vars.color.accent },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -1 },
  },
});

export const alertInput = style({
  // Wide enough for the longest translation of its placeholder ("Цена оповещения").
  width: "calc(16ch + 14px)",
  height: 20,
  padding: "0 6px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: 4,
  background: vars.color.bg,
  color: vars.color.text,
  fontFamily: vars.font.mono,
  fontSize: 11,
  selectors: {
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -1 },
  },
});

export const addButton = style([tfButton, { fontFamily: vars.font.body, color: vars.color.text }]);

export const chip = style({
  display: "inline-flex",
  alignItems: "center",
  gap: 3,
  padding: "1px 2px 1px 6px",
  borderRadius: 10,
  border: `1px solid ${vars.color.warning}`,
  color: vars.color.warning,
  fontFamily: vars.font.mono,
  fontSize: 11,
});

export const chipRemove = style({
  border: "none",
  background: "transparent",
  color: "inherit",
  cursor: "pointer",
  padding: "0 4px",
  fontSize: 12,
  lineHeight: 1,
  borderRadius: 8,
  selectors: { "&:hover": { background: vars.color.surfaceRaised } },
});

export const plot = style({
  position: "relative",
  // The chart_height setting is the plot's own height; inside a grid cell the flex rules shrink or
  // grow it to the cell.
  flex: "1 1 auto",
  minHeight: 80,
  overflow: "hidden",
  userSelect: "none",
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 } },
});

export const host = style({ position: "absolute", inset: 0 });

export const legend = style({
  position: "absolute",
  top: 4,
  left: 8,
  zIndex: 2,
  display: "flex",
  flexWrap: "wrap",
  gap: "0 6px",
  alignItems: "baseline",
  pointerEvents: "none",
  fontFamily: vars.font.mono,
  fontSize: 11,
  color: vars.color.textMuted,
  textShadow: `0 0 3px ${vars.color.surface}`,
});

export const legendTime = style({ color: vars.color.text, marginRight: 4 });

export const empty = overlayNote;

// uPlot's own overlay elements: crosshair and selection in the theme's colours.
globalStyle(`${host} .u-cursor-x, ${host} .u-cursor-y`, { borderColor: vars.color.textMuted });
globalStyle(`${host} .u-select`, { background: `color-mix(in srgb, ${vars.color.accent} 18%, transparent)` });
// touch-action: the chart's own pan and pinch (candle-chart.ts) instead of the page's scroll and zoom.
globalStyle(`${host} .u-over`, { cursor: "crosshair", touchAction: "none" });

/** Under the legend, over the plot: the liquidation chips. */
export const liqOverlay = style({
  position: "absolute",
  top: 22,
  left: 8,
  zIndex: 2,
  display: "flex",
  flexWrap: "wrap",
  gap: 4,
  pointerEvents: "none",
});

/** A position's liquidation price over the chart; bolder, with a warning sign, once the price is near it. */
export const liqChip = style([
  chip,
  {
    padding: "1px 6px",
    borderColor: vars.color.danger,
    color: vars.color.danger,
    background: vars.color.surface,
    whiteSpace: "nowrap",
  },
]);
export const liqChipNear = style([liqChip, { fontWeight: 700, borderWidth: 2 }]);
