import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { overlayNote } from "../widget-chrome.css";

export const root = style({
  position: "relative",
  height: "100%",
  minHeight: 0,
  minWidth: 0,
  overflow: "hidden",
  background: vars.color.surface,
  color: vars.color.text,
});

export const canvas = style({
  position: "absolute",
  inset: 0,
  width: "100%",
  height: "100%",
  display: "block",
  cursor: "crosshair",
});

export const readout = style({
  position: "absolute",
  top: 6,
  left: 0,
  pointerEvents: "none",
  padding: "4px 8px",
  borderRadius: 5,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  fontSize: 11,
  lineHeight: "15px",
  fontVariantNumeric: "tabular-nums",
  whiteSpace: "nowrap",
  boxShadow: "0 4px 12px rgba(0,0,0,0.2)",
  display: "grid",
  gridTemplateColumns: "auto auto",
  columnGap: 8,
  selectors: { '&[data-hidden="true"]': { display: "none" } },
});

export const readoutTerm = style({ color: vars.color.textMuted });
export const readoutValue = style({ textAlign: "right", fontFamily: vars.font.mono });

export const empty = style([overlayNote, { fontSize: 12 }]);
