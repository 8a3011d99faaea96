import { style } from "@vanilla-extract/css";
import { vars } from "../../theme/contract.css";
import { compactSelect } from "../widgets/widget-chrome.css";

export const grid = style({ position: "relative", width: "100%", minHeight: 200 });

export const cell = style({
  position: "absolute",
  left: 0,
  top: 0,
  display: "flex",
  flexDirection: "column",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  overflow: "hidden",
  // Position changes are transforms: the compositor moves the cell without a layout pass.
  willChange: "transform",
  // The grid gives every cell its size, so a cell can be fully contained: a book repainting its
  // numbers lays out and paints that cell only, never the page around it (bench:ui, 8 books).
  contain: "strict",
  selectors: {
    '&[data-dragging="true"]': {
      zIndex: 5,
      boxShadow: "0 8px 24px rgba(0,0,0,0.35)",
      opacity: 0.92,
    },
  },
});

export const header = style({
  display: "flex",
  alignItems: "center",
  gap: 6,
  height: 26,
  flex: "0 0 26px",
  padding: "0 6px 0 8px",
  fontSize: 12,
  fontWeight: 600,
  color: vars.color.textMuted,
  borderBottom: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  userSelect: "none",
  selectors: {
    '&[data-editable="true"]': { cursor: "grab", touchAction: "none" },
    '&[data-editable="true"]:focus-visible': { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 },
  },
});

export const title = style({
  flex: "1 1 auto",
  minWidth: 0,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
});

export const pairTag = style({ fontWeight: 500, color: vars.color.text, fontFamily: vars.font.mono, fontSize: 11 });

export const iconButton = style({
  border: "none",
  background: "transparent",
  color: vars.color.textMuted,
  cursor: "pointer",
  padding: "0 4px",
  fontSize: 14,
  lineHeight: 1,
  borderRadius: 4,
  selectors: { "&:hover": { color: vars.color.text, background: vars.color.surface } },
});

export const body = style({ flex: "1 1 auto", minHeight: 0, position: "relative", overflow: "hidden" });

export const resize = style({
  position: "absolute",
  right: 0,
  bottom: 0,
  width: 16,
  height: 16,
  cursor: "nwse-resize",
  touchAction: "none",
  background: `linear-gradient(135deg, transparent 50%, ${vars.color.textMuted} 50%, ${vars.color.textMuted} 60%, transparent 60%, transparent 75%, ${vars.color.textMuted} 75%)`,
  opacity: 0.7,
});

export const placeholder = style({
  position: "absolute",
  left: 0,
  top: 0,
  border: `2px dashed ${vars.color.accent}`,
  borderRadius: 6,
  background: vars.color.surfaceRaised,
  opacity: 0.5,
  pointerEvents: "none",
});

export const crashed = style({ padding: 12, color: vars.color.textMuted, fontSize: 13 });

export const pinSelect = style([compactSelect, { fontSize: 11, padding: "0 2px", maxWidth: 190 }]);
