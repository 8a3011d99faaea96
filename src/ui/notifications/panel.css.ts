/**
 * The desk's notifications panel: an overlay on the right edge, above the grid, so opening it never
 * changes the grid's size; full width less a margin on a phone.
 */
import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export const panel = style({
  position: "fixed",
  top: 8,
  right: 8,
  bottom: 8,
  width: "min(360px, calc(100vw - 16px))",
  display: "flex",
  flexDirection: "column",
  // Below the toasts (50), which stay where they can be dismissed, and the API notice (60).
  zIndex: 45,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  boxShadow: "0 8px 32px rgba(0, 0, 0, 0.35)",
  color: vars.color.text,
  outline: "none",
});

export const head = style({
  display: "flex",
  alignItems: "center",
  gap: 8,
  padding: "10px 12px",
  borderBottom: `1px solid ${vars.color.border}`,
});

export const title = style({ fontSize: 14, margin: 0, flex: "1 1 auto", outline: "none" });

export const list = style({
  listStyle: "none",
  margin: 0,
  padding: "8px 12px",
  overflowY: "auto",
  flex: "1 1 auto",
});

export const item = style({
  borderLeft: `3px solid ${vars.color.border}`,
  padding: "4px 8px",
  marginBottom: 8,
  selectors: {
    '&[data-level="error"]': { borderLeftColor: vars.color.danger },
    '&[data-level="warning"]': { borderLeftColor: vars.color.warning },
    '&[data-level="success"]': { borderLeftColor: vars.color.success },
  },
});

export const time = style({ color: vars.color.textMuted, fontSize: 11, fontVariantNumeric: "tabular-nums" });

export const empty = style({ color: vars.color.textMuted, fontSize: 13, padding: "8px 12px", margin: 0 });
