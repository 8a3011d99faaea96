import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export const page = style({ padding: "32px 16px", display: "flex", justifyContent: "center" });

export const card = style({
  width: "100%",
  maxWidth: 560,
  padding: "24px 24px 20px",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  display: "grid",
  gap: 12,
  "@media": { "screen and (max-width: 480px)": { padding: "18px 14px 14px" } },
});

/** A muted mark beside the heading: the state is meant, not a broken page. */
export const mark = style({
  display: "inline-grid",
  placeItems: "center",
  width: 32,
  height: 32,
  borderRadius: "50%",
  border: `2px solid ${vars.color.warning}`,
  color: vars.color.warning,
  fontWeight: 700,
  flex: "0 0 auto",
});

export const heading = style({ display: "flex", alignItems: "center", gap: 10, margin: 0, fontSize: 20 });

export const text = style({ margin: 0, color: vars.color.textMuted, lineHeight: 1.5, overflowWrap: "anywhere" });

export const subheading = style({ margin: "4px 0 8px", fontSize: 14, fontWeight: 600 });

export const list = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(120px, 1fr))",
  gap: 8,
});

export const link = style({
  display: "block",
  padding: "8px 10px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  textDecoration: "none",
  fontWeight: 600,
  fontVariantNumeric: "tabular-nums",
  selectors: {
    "&:hover": { borderColor: vars.color.accent },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 2 },
  },
});

export const loading = style({ padding: "32px 16px", color: vars.color.textMuted, textAlign: "center" });
