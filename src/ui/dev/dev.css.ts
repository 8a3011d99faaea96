import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export const panel = style({
  position: "fixed",
  right: 16,
  bottom: 16,
  width: 360,
  zIndex: 60,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  boxShadow: "0 8px 30px rgba(0,0,0,0.35)",
  padding: 12,
  display: "grid",
  gap: 10,
  fontSize: 13,
});

export const head = style({ display: "flex", justifyContent: "space-between", alignItems: "center", fontWeight: 600 });
export const row = style({ display: "flex", gap: 8, alignItems: "center", flexWrap: "wrap" });
export const flag = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  padding: 8,
  display: "grid",
  gap: 8,
});
export const stats = style({ fontFamily: vars.font.mono, fontSize: 12, color: vars.color.textMuted, minHeight: 16 });
export const iconButton = style({
  background: "transparent",
  border: "none",
  color: vars.color.textMuted,
  cursor: "pointer",
  fontSize: 14,
  selectors: { "&:hover": { color: vars.color.text } },
});
export const faults = style({ display: "grid", gap: 6, gridTemplateColumns: "1fr", fontSize: 13 });
