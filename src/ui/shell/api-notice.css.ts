import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

/** Fixed at the top over every page, so the notice is seen whatever the page scrolled to. */
export const toastRegion = style({
  position: "fixed",
  top: 12,
  left: 12,
  right: 12,
  display: "flex",
  justifyContent: "center",
  pointerEvents: "none",
  zIndex: 60,
});

export const toast = style({
  display: "flex",
  alignItems: "center",
  gap: 12,
  maxWidth: 640,
  padding: "10px 14px",
  borderRadius: 8,
  background: vars.color.warning,
  // Dark text on the warning hue in every theme (the maintenance notice does the same).
  color: "#111",
  fontWeight: 500,
  boxShadow: "0 8px 30px rgba(0,0,0,0.35)",
  pointerEvents: "auto",
});

export const text = style({ flex: 1 });

export const close = style({
  background: "transparent",
  color: "#111",
  border: "1px solid rgba(0,0,0,0.45)",
  borderRadius: 6,
  minWidth: 32,
  minHeight: 32,
  cursor: "pointer",
});
