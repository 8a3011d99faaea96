import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";

/** One column no wider than the page: the choices and the table never widen it past a phone's width. */
export const page = style({ gridTemplateColumns: "minmax(0, 1fr)", width: "100%" });
export const panel = style({
  minWidth: 0,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
  padding: 16,
  display: "grid",
  gap: 16,
  gridTemplateColumns: "minmax(0, 1fr) auto",
  alignItems: "start",
  "@media": { "screen and (max-width: 640px)": { gridTemplateColumns: "minmax(0, 1fr)" } },
});
export const details = style({ display: "grid", gap: 12, minWidth: 0 });
export const facts = style({ display: "grid", gap: 10, margin: 0 });
export const fact = style({ display: "grid", gap: 2, minWidth: 0 });
export const term = style({ color: vars.color.textMuted, fontSize: 13 });
export const value = style({ margin: 0, overflowWrap: "anywhere" });
export const address = style({
  fontFamily: vars.font.mono,
  fontSize: 15,
  overflowWrap: "anywhere",
  margin: 0,
});
export const row = style({ display: "flex", flexWrap: "wrap", gap: 8, alignItems: "center" });
export const warning = style({
  margin: 0,
  padding: "10px 12px",
  borderRadius: 8,
  border: `1px solid ${vars.color.warning}`,
  color: vars.color.text,
});
export const qr = style({ justifySelf: "center", lineHeight: 0 });
export const title = style({ fontSize: 18, margin: 0 });
