import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";

export const hero = style({ padding: "40px 0 24px", maxWidth: 760 });
export const h1 = style({ fontSize: 34, lineHeight: 1.15, margin: "0 0 16px" });
export const h2 = style({ fontSize: 20, margin: "28px 0 8px" });
export const lead = style({ fontSize: 17, color: vars.color.textMuted, margin: "0 0 20px" });
export const actions = style({ display: "flex", gap: 12, flexWrap: "wrap", alignItems: "center" });
export const cta = style({
  display: "inline-block",
  background: vars.color.accent,
  color: vars.color.accentText,
  padding: "10px 18px",
  borderRadius: 8,
  textDecoration: "none",
  fontWeight: 600,
});
export const ctaGhost = style([
  cta,
  { background: "transparent", color: vars.color.text, border: `1px solid ${vars.color.border}` },
]);
export const grid = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(240px, 1fr))",
  gap: 16,
  marginTop: 24,
});
export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: 16,
});
export const cardTitle = style({ margin: "0 0 6px", fontSize: 16 });
export const muted = style({ color: vars.color.textMuted });
export const up = style({ color: vars.color.up, fontWeight: 600 });
export const down = style({ color: vars.color.down, fontWeight: 600 });
export const form = style({ display: "grid", gap: 14, maxWidth: 380 });
export const field = style({ display: "grid", gap: 4 });
export const input = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "8px 10px",
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const fieldError = style({ color: vars.color.danger, fontSize: 12 });
export const alert = style({
  border: `1px solid ${vars.color.danger}`,
  background: vars.color.surfaceRaised,
  padding: "10px 12px",
  borderRadius: 8,
});
export const info = style({
  border: `1px solid ${vars.color.accent}`,
  background: vars.color.surfaceRaised,
  padding: "10px 12px",
  borderRadius: 8,
});
export const settingsGrid = style({ display: "grid", gap: 18, maxWidth: 560 });
export const settingRow = style({
  justifyItems: "start",
  display: "grid",
  gridTemplateColumns: "1fr 220px",
  gap: 12,
  alignItems: "center",
  "@media": { "screen and (max-width: 560px)": { gridTemplateColumns: "1fr" } },
});
export const code = style({ fontFamily: vars.font.mono, fontSize: 48, color: vars.color.textMuted, margin: 0 });
export const swatches = style({ display: "flex", gap: 12, alignItems: "center" });
