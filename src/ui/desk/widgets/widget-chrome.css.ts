/**
 * What the desk's widgets look like alike: the panel every widget fills, the note centred over an
 * empty panel, and the small select of toolbars. Widgets compose these (`style([panel, {...}])`)
 * instead of repeating them, so the desk keeps one look when the theme changes.
 */
import { style } from "@vanilla-extract/css";
import { vars } from "../../theme/contract.css";

/** A widget's root: a column filling its grid cell on the panel surface. */
export const panel = style({
  display: "flex",
  flexDirection: "column",
  height: "100%",
  minHeight: 0,
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: 12,
});

/** A muted note centred over the panel (waiting for data, nothing to show); clicks pass through. */
export const overlayNote = style({
  position: "absolute",
  inset: 0,
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  color: vars.color.textMuted,
  pointerEvents: "none",
});

/** A compact select in a toolbar or header. */
export const compactSelect = style({
  background: vars.color.bg,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 4,
});
