import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

const NARROW = "screen and (max-width: 640px)";

export const loading = style({ color: vars.color.textMuted, padding: "16px 0" });
export const error = style({
  border: `1px solid ${vars.color.danger}`,
  background: vars.color.surfaceRaised,
  padding: "12px 14px",
  borderRadius: 8,
  display: "flex",
  gap: 12,
  alignItems: "center",
  flexWrap: "wrap",
  margin: "12px 0",
});
export const errorText = style({ margin: 0, flex: "1 1 240px" });
export const button = style({
  background: "transparent",
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "6px 12px",
  cursor: "pointer",
});

/** A wide table scrolls sideways on a phone instead of widening the page. */
// Positioned: the visually hidden caption is absolutely placed, and must be clipped here too.
export const tableWrap = style({ overflowX: "auto", margin: "12px 0", position: "relative" });
export const table = style({ width: "100%", borderCollapse: "collapse", fontVariantNumeric: "tabular-nums" });
export const th = style({
  textAlign: "start",
  fontWeight: 600,
  fontSize: 13,
  color: vars.color.textMuted,
  padding: "8px 10px",
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap",
});
export const thNum = style([th, { textAlign: "end" }]);
export const td = style({ padding: "8px 10px", borderBottom: `1px solid ${vars.color.border}`, textAlign: "start" });
export const tdNum = style([td, { textAlign: "end", whiteSpace: "nowrap" }]);
export const sortButton = style({
  background: "none",
  border: "none",
  color: "inherit",
  font: "inherit",
  cursor: "pointer",
  padding: 0,
  display: "inline-flex",
  gap: 4,
});
export const pairLink = style({ color: vars.color.text, fontWeight: 600, textDecoration: "none" });
export const quote = style({ color: vars.color.textMuted, fontWeight: 400 });
export const up = style({ color: vars.color.up });
export const down = style({ color: vars.color.down });
export const muted = style({ color: vars.color.textMuted, captionSide: "top", textAlign: "start" });

export const toolbar = style({ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap", margin: "8px 0" });
export const field = style({ display: "grid", gap: 4 });
export const label = style({ fontSize: 13, color: vars.color.textMuted });
export const input = style({
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "8px 10px",
  minWidth: 200,
});

export const figures = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(180px, 1fr))",
  gap: 12,
  margin: "16px 0",
  padding: 0,
});
export const figure = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: "12px 14px",
  margin: 0,
});
export const figureValue = style({ fontSize: 24, fontWeight: 700, margin: 0, fontVariantNumeric: "tabular-nums" });
export const figureLabel = style({ color: vars.color.textMuted, fontSize: 13, margin: 0 });
export const banner = style({
  display: "flex",
  gap: 12,
  alignItems: "center",
  flexWrap: "wrap",
  border: `1px solid ${vars.color.accent}`,
  background: vars.color.surfaceRaised,
  padding: "10px 14px",
  borderRadius: 8,
  margin: "0 0 16px",
});
export const bannerLink = style({ color: vars.color.accent, fontWeight: 600 });

export const countdown = style({
  display: "grid",
  gridTemplateColumns: "repeat(4, minmax(0, 1fr))",
  gap: 12,
  margin: "16px 0",
  maxWidth: 560,
  "@media": { [NARROW]: { gap: 8 } },
});
export const countdownValue = style({
  fontSize: 40,
  fontWeight: 700,
  margin: 0,
  fontVariantNumeric: "tabular-nums",
  "@media": { [NARROW]: { fontSize: 28 } },
});

/** Read by screen readers, not shown. */
export const visuallyHidden = style({
  position: "absolute",
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  border: 0,
});

export const bookSides = style({
  display: "grid",
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  gap: 16,
  "@media": { [NARROW]: { gridTemplateColumns: "1fr" } },
});
export const bookCaption = style({ textAlign: "start", fontWeight: 600, padding: "4px 0" });

export const chartFigure = style({ margin: "12px 0 24px" });
export const chart = style({ width: "100%", minHeight: 260, overflow: "hidden" });
