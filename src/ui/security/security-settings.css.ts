import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export { alert, card, muted } from "../account/account-page.css";

export const h2 = style({ fontSize: 20, margin: "28px 0 0" });
export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 0 });
export const row = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) auto",
  gap: "6px 16px",
  alignItems: "center",
  padding: "12px 0",
  borderBottom: `1px solid ${vars.color.border}`,
  selectors: { "&:last-child": { borderBottom: "none" } },
});
/** A row whose control sits below its text (the address list). */
export const rowStacked = style([row, { gridTemplateColumns: "minmax(0, 1fr)" }]);
export const rowText = style({ display: "grid", gap: 2, minWidth: 0 });
export const label = style({ fontWeight: 600 });
/** A checkbox drawn as a switch; it stays a real checkbox (role="switch") for keyboard and readers. */
export const toggle = style({
  appearance: "none",
  width: 42,
  height: 24,
  borderRadius: 12,
  background: vars.color.border,
  position: "relative",
  cursor: "pointer",
  margin: 0,
  transition: "background 120ms",
  selectors: {
    "&::after": {
      content: '""',
      position: "absolute",
      top: 3,
      insetInlineStart: 3,
      width: 18,
      height: 18,
      borderRadius: "50%",
      background: vars.color.surface,
      transition: "inset-inline-start 120ms",
    },
    "&:checked": { background: vars.color.success },
    "&:checked::after": { insetInlineStart: 21 },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 2 },
    "&:disabled": { opacity: 0.6, cursor: "default" },
  },
});
export const pending = style({
  gridColumn: "1 / -1",
  display: "flex",
  flexWrap: "wrap",
  gap: 10,
  alignItems: "center",
  fontSize: 14,
  color: vars.color.warning,
});
export const button = style({
  background: "transparent",
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "6px 12px",
  font: "inherit",
  cursor: "pointer",
  selectors: { "&:disabled": { opacity: 0.6, cursor: "default" } },
});
export const primary = style({
  background: vars.color.accent,
  color: vars.color.accentText,
  border: "none",
  borderRadius: 6,
  padding: "8px 14px",
  font: "inherit",
  fontWeight: 600,
  cursor: "pointer",
  selectors: { "&:disabled": { opacity: 0.6, cursor: "default" } },
});
export const field = style({ display: "grid", gap: 4, maxWidth: 420 });
export const textarea = style({
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "8px 10px",
  font: "inherit",
  fontFamily: vars.font.mono,
  minHeight: 84,
  resize: "vertical",
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const fieldError = style({ color: vars.color.danger, fontSize: 13 });
export const actions = style({ display: "flex", flexWrap: "wrap", gap: 10, alignItems: "center" });
// Empty until a change is told; present from the start, so a screen reader announces the text.
export const status = style({ margin: 0, fontSize: 14 });
export const mono = style({ fontFamily: vars.font.mono, wordBreak: "break-all" });
