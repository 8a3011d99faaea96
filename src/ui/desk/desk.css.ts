import { style, keyframes } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";
import { compactSelect } from "./widgets/widget-chrome.css";

export const desk = style({ display: "flex", flexDirection: "column", gap: 6, padding: "6px 0" });

/** The desk's phone layout (src/ui/desk/phone/phone-tabs.ts's PHONE_QUERY, as a media condition). */
const PHONE = "screen and (max-width: 768px)";

export const bar = style({
  display: "flex",
  alignItems: "center",
  gap: 10,
  flexWrap: "wrap",
  padding: "6px 10px",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  fontSize: 13,
  "@media": { [PHONE]: { gap: 8, padding: "4px 8px" } },
});

/** Layouts are the grid's: a phone shows tabs instead (docs/product-rules.md#phone-desk). */
export const layoutBar = style([bar, { "@media": { [PHONE]: { display: "none" } } }]);

/** The 24 h high, low and volume: left out of the compact headline on a phone. */
export const moreStats = style({ display: "contents", "@media": { [PHONE]: { display: "none" } } });

export const pairName = style({
  fontSize: 18,
  fontWeight: 700,
  margin: 0,
  letterSpacing: 0.3,
  "@media": { [PHONE]: { fontSize: 16 } },
});
export const quote = style({ color: vars.color.textMuted, fontWeight: 500 });

export const stat = style({ display: "grid", lineHeight: 1.2, fontVariantNumeric: "tabular-nums" });
export const statLabel = style({ fontSize: 11, color: vars.color.textMuted });
export const statValue = style({ fontSize: 13, fontWeight: 600 });
export const up = style({ color: vars.color.up });
export const down = style({ color: vars.color.down });

export const spacer = style({ flex: "1 1 auto" });

export const light = style({
  display: "inline-flex",
  alignItems: "center",
  gap: 6,
  fontSize: 12,
  color: vars.color.textMuted,
  selectors: {
    "&::before": {
      content: '""',
      width: 8,
      height: 8,
      borderRadius: "50%",
      background: vars.color.textMuted,
    },
    '&[data-state="online"]::before': { background: vars.color.success },
    // The states of feed-status.ts: warning while connecting or waiting, danger when data is not live.
    '&[data-state="connecting"]::before, &[data-state="reconnecting"]::before, &[data-state="waiting"]::before, &[data-state="closing"]::before':
      { background: vars.color.warning },
    '&[data-state="offline"]::before, &[data-state="silent"]::before, &[data-state="stale"]::before, &[data-state="error"]::before, &[data-state="out-of-sync"]::before':
      { background: vars.color.danger },
  },
});

export const button = style({
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  borderRadius: 4,
  padding: "4px 8px",
  cursor: "pointer",
  fontSize: 12,
  selectors: {
    "&:hover": { borderColor: vars.color.accent },
    '&[aria-pressed="true"]': { background: vars.color.accent, color: vars.color.accentText },
    "&:disabled": { opacity: 0.5, cursor: "default" },
  },
});

export const primary = style([
  button,
  { background: vars.color.accent, color: vars.color.accentText, fontWeight: 600 },
]);

export const select = style([compactSelect, { fontSize: 12, padding: "3px 6px" }]);

export const group = style({ display: "inline-flex", gap: 4, alignItems: "center", flexWrap: "wrap" });

export const hint = style({ fontSize: 12, color: vars.color.textMuted });

export const badge = style({
  display: "inline-block",
  minWidth: 16,
  padding: "0 4px",
  marginLeft: 4,
  borderRadius: 8,
  background: vars.color.danger,
  color: "#fff",
  fontSize: 10,
  lineHeight: "16px",
  textAlign: "center",
});

export const body = style({ display: "flex", gap: 6, alignItems: "flex-start" });
export const gridArea = style({ flex: "1 1 auto", minWidth: 0 });

export const noticeItem = style({
  borderLeft: `3px solid ${vars.color.border}`,
  padding: "4px 8px",
  marginBottom: 6,
  selectors: {
    '&[data-level="error"]': { borderLeftColor: vars.color.danger },
    '&[data-level="warning"]': { borderLeftColor: vars.color.warning },
    '&[data-level="success"]': { borderLeftColor: vars.color.success },
    '&[data-level="info"]': { borderLeftColor: vars.color.accent },
  },
});

const slideIn = keyframes({
  from: { transform: "translateY(8px)", opacity: 0 },
  to: { transform: "none", opacity: 1 },
});

export const toasts = style({
  position: "fixed",
  right: 16,
  bottom: 16,
  display: "flex",
  flexDirection: "column",
  gap: 8,
  zIndex: 50,
  maxWidth: 360,
});

export const toast = style([
  noticeItem,
  {
    background: vars.color.surfaceRaised,
    border: `1px solid ${vars.color.border}`,
    borderLeftWidth: 4,
    borderRadius: 6,
    padding: "8px 10px",
    boxShadow: "0 6px 18px rgba(0,0,0,0.3)",
    display: "flex",
    gap: 8,
    alignItems: "flex-start",
    animation: `${slideIn} 160ms ease-out`,
    fontSize: 13,
  },
]);

export const toastText = style({ flex: "1 1 auto" });

export const dialog = style({
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  padding: 16,
  minWidth: 300,
  maxWidth: 480,
  selectors: { "&::backdrop": { background: "rgba(0,0,0,0.5)" } },
});

export const dialogTitle = style({ margin: "0 0 10px", fontSize: 16 });
export const keys = style({ width: "100%", borderCollapse: "collapse", fontSize: 13 });
export const kbd = style({
  fontFamily: vars.font.mono,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 4,
  padding: "1px 5px",
  background: vars.color.surfaceRaised,
  whiteSpace: "nowrap",
});
export const keyCell = style({ padding: "4px 12px 4px 0", verticalAlign: "top" });
export const dialogActions = style({ display: "flex", gap: 8, justifyContent: "flex-end", marginTop: 14 });
export const input = style({
  background: vars.color.bg,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 4,
  padding: "6px 8px",
  width: "100%",
  boxSizing: "border-box",
});
