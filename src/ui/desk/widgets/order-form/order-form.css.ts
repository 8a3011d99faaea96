import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";

export const root = style({
  height: "100%",
  overflowY: "auto",
  boxSizing: "border-box",
  padding: 10,
  display: "flex",
  flexDirection: "column",
  gap: 8,
  fontSize: 13,
  color: vars.color.text,
  background: vars.color.surface,
  fontFamily: vars.font.body,
});

export const segmented = style({
  display: "grid",
  gridAutoFlow: "column",
  gridAutoColumns: "1fr",
  gap: 2,
  padding: 2,
  borderRadius: 6,
  background: vars.color.bg,
  border: `1px solid ${vars.color.border}`,
});

export const segmentedCompact = style([segmented, { fontSize: 12 }]);

globalStyle(`${segmentedCompact} > button`, { padding: "3px 8px" });

const segmentBase = style({
  appearance: "none",
  border: "none",
  borderRadius: 4,
  padding: "6px 8px",
  font: "inherit",
  fontWeight: 600,
  cursor: "pointer",
  color: vars.color.textMuted,
  background: "transparent",
  selectors: {
    "&:hover": { color: vars.color.text },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 1 },
  },
});

export const segment = styleVariants({
  plain: [
    segmentBase,
    { selectors: { '&[aria-checked="true"]': { background: vars.color.surfaceRaised, color: vars.color.text } } },
  ],
  buy: [
    segmentBase,
    { selectors: { '&[aria-checked="true"]': { background: vars.color.up, color: vars.color.accentText } } },
  ],
  sell: [
    segmentBase,
    { selectors: { '&[aria-checked="true"]': { background: vars.color.down, color: vars.color.accentText } } },
  ],
});

export const field = style({ display: "grid", gap: 3 });

export const label = style({
  display: "flex",
  justifyContent: "space-between",
  alignItems: "baseline",
  gap: 6,
  fontSize: 12,
  color: vars.color.textMuted,
});

export const inputWrap = style({ position: "relative", display: "flex" });

export const input = style({
  width: "100%",
  minWidth: 0,
  boxSizing: "border-box",
  padding: "6px 8px",
  borderRadius: 5,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.bg,
  color: vars.color.text,
  font: "inherit",
  fontFamily: vars.font.mono,
  fontVariantNumeric: "tabular-nums",
  textAlign: "right",
  selectors: {
    "&:focus": { outline: "none", borderColor: vars.color.focus, boxShadow: `0 0 0 1px ${vars.color.focus}` },
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
  },
});

export const plainInput = style([input, { paddingRight: 8, textAlign: "left" }]);

export const inlineField = style({
  display: "flex",
  alignItems: "center",
  gap: 8,
  fontSize: 12,
  color: vars.color.textMuted,
});

export const inlineInput = style({ position: "relative", display: "flex", width: 96 });

export const contextBadge = style({
  marginRight: "auto",
  padding: "3px 8px",
  borderRadius: 4,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  fontWeight: 600,
});

export const unit = style({
  position: "absolute",
  right: 8,
  top: "50%",
  transform: "translateY(-50%)",
  fontSize: 11,
  color: vars.color.textMuted,
  pointerEvents: "none",
});

export const select = style([
  plainInput,
  { fontFamily: vars.font.body, cursor: "pointer", paddingTop: 5, paddingBottom: 5 },
]);

export const message = styleVariants({
  error: { margin: 0, fontSize: 11.5, color: vars.color.danger },
  warning: { margin: 0, fontSize: 11.5, color: vars.color.warning },
  note: { margin: 0, fontSize: 11.5, color: vars.color.textMuted },
});

export const linkButton = style({
  appearance: "none",
  border: "none",
  background: "none",
  padding: 0,
  font: "inherit",
  fontSize: 11.5,
  color: vars.color.accent,
  cursor: "pointer",
  fontVariantNumeric: "tabular-nums",
  selectors: {
    "&:disabled": { color: vars.color.textMuted, cursor: "default" },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 1 },
  },
});

export const percents = style({ display: "grid", gridTemplateColumns: "repeat(4, 1fr)", gap: 4 });

export const percent = style({
  appearance: "none",
  padding: "3px 0",
  borderRadius: 4,
  border: `1px solid ${vars.color.border}`,
  background: "transparent",
  color: vars.color.textMuted,
  font: "inherit",
  fontSize: 11.5,
  cursor: "pointer",
  selectors: {
    "&:hover:not(:disabled)": { color: vars.color.text, borderColor: vars.color.textMuted },
    "&:disabled": { opacity: 0.45, cursor: "default" },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 1 },
  },
});

export const options = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "4px 12px",
  paddingTop: 2,
});

export const check = style({
  display: "inline-flex",
  alignItems: "center",
  gap: 5,
  fontSize: 12,
  color: vars.color.text,
  cursor: "pointer",
});

globalStyle(`${check} input`, { margin: 0, accentColor: vars.color.accent });

const submitBase = style({
  appearance: "none",
  border: "none",
  borderRadius: 6,
  padding: "9px 12px",
  font: "inherit",
  fontWeight: 700,
  fontSize: 14,
  cursor: "pointer",
  color: vars.color.accentText,
  selectors: {
    "&:disabled": { opacity: 0.6, cursor: "progress" },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 2 },
  },
});

export const submitButton = styleVariants({
  buy: [submitBase, { background: vars.color.up }],
  sell: [submitBase, { background: vars.color.down }],
});

export const signIn = style({
  display: "grid",
  gap: 6,
  padding: 10,
  borderRadius: 6,
  border: `1px dashed ${vars.color.border}`,
  textAlign: "center",
  color: vars.color.textMuted,
});

export const signInLink = style({
  display: "block",
  padding: "8px 12px",
  borderRadius: 6,
  background: vars.color.accent,
  color: vars.color.accentText,
  fontWeight: 700,
  textDecoration: "none",
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 2 } },
});

export const result = styleVariants({
  success: {
    margin: 0,
    padding: "6px 8px",
    borderRadius: 5,
    background: vars.color.positiveSoft,
    color: vars.color.text,
  },
  error: {
    margin: 0,
    padding: "6px 8px",
    borderRadius: 5,
    background: vars.color.negativeSoft,
    color: vars.color.text,
  },
});

export const summaryLine = style({ display: "flex", justifyContent: "space-between", gap: 8, fontSize: 12 });

export const mono = style({ fontFamily: vars.font.mono, fontVariantNumeric: "tabular-nums" });

// --- confirmation dialog ------------------------------------------------------------------------

export const dialog = style({
  width: "min(420px, calc(100vw - 32px))",
  padding: 0,
  borderRadius: 10,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: 13,
  boxShadow: "0 16px 48px rgba(0,0,0,0.45)",
  selectors: { "&::backdrop": { background: "rgba(0,0,0,0.5)" } },
});

export const dialogBody = style({ display: "grid", gap: 12, padding: 16 });

export const dialogTitle = style({ margin: 0, fontSize: 16, fontWeight: 700 });

export const summary = style({
  display: "grid",
  gridTemplateColumns: "auto 1fr",
  gap: "6px 16px",
  margin: 0,
});

export const summaryRow = style({ display: "contents" });

globalStyle(`${summary} dt`, { color: vars.color.textMuted });
globalStyle(`${summary} dd`, {
  margin: 0,
  textAlign: "right",
  fontFamily: vars.font.mono,
  fontVariantNumeric: "tabular-nums",
});

export const sideText = styleVariants({
  buy: { color: vars.color.up, fontWeight: 700 },
  sell: { color: vars.color.down, fontWeight: 700 },
});

export const ackBox = style({
  display: "grid",
  gap: 8,
  padding: 10,
  borderRadius: 6,
  border: `1px solid ${vars.color.warning}`,
  color: vars.color.text,
});

export const ackText = style({ margin: 0, lineHeight: 1.4 });

export const dialogActions = style({ display: "flex", justifyContent: "flex-end", gap: 8 });

export const secondaryButton = style({
  appearance: "none",
  padding: "8px 14px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: "transparent",
  color: vars.color.text,
  font: "inherit",
  cursor: "pointer",
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 2 } },
});
