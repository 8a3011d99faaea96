import { style, keyframes } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export const layout = style({ minHeight: "100vh", display: "flex", flexDirection: "column" });

export const header = style({
  display: "flex",
  alignItems: "center",
  gap: 16,
  padding: "8px 16px",
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  flexWrap: "wrap",
});

export const brand = style({
  fontWeight: 700,
  fontSize: 17,
  color: vars.color.text,
  textDecoration: "none",
  letterSpacing: 0.2,
  display: "flex",
  alignItems: "center",
  gap: 8,
});

export const brandMark = style({ width: 20, height: 20, borderRadius: 5, background: vars.color.accent });

export const nav = style({ display: "flex", gap: 4, flexWrap: "wrap", flex: "1 1 auto", minWidth: 0 });

export const navLink = style({
  color: vars.color.textMuted,
  textDecoration: "none",
  padding: "6px 10px",
  borderRadius: 6,
  selectors: {
    "&:hover": { color: vars.color.text, background: vars.color.surfaceRaised },
    '&[aria-current="page"]': { color: vars.color.text, background: vars.color.surfaceRaised },
  },
});

export const controls = style({ display: "flex", gap: 8, alignItems: "center" });

export const disclosure = style({ position: "relative" });

export const popover = style({
  position: "absolute",
  right: 0,
  top: "calc(100% + 6px)",
  zIndex: 30,
  display: "grid",
  gap: 10,
  minWidth: 380,
  padding: 12,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  boxShadow: "0 8px 24px rgba(0,0,0,0.3)",
});

/** A popover that lists links (the account menu): narrower than the display settings. */
export const menu = style([popover, { minWidth: 200, gap: 2 }]);

export const popoverRow = style({
  display: "grid",
  gridTemplateColumns: "1fr 230px",
  gap: 8,
  alignItems: "center",
  color: vars.color.textMuted,
});

export const select = style({
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "4px 6px",
});

export const button = style({
  background: vars.color.accent,
  color: vars.color.accentText,
  border: "none",
  borderRadius: 6,
  padding: "6px 12px",
  cursor: "pointer",
  fontWeight: 600,
  textDecoration: "none",
  display: "inline-block",
  selectors: { "&:disabled": { opacity: 0.6, cursor: "default" } },
});

export const ghostButton = style([
  button,
  {
    background: "transparent",
    color: vars.color.text,
    border: `1px solid ${vars.color.border}`,
    fontWeight: 500,
    listStyle: "none",
    userSelect: "none",
    selectors: { "&::-webkit-details-marker": { display: "none" } },
  },
]);

export const main = style({
  flex: 1,
  padding: "24px 16px",
  maxWidth: 1200,
  width: "100%",
  margin: "0 auto",
  boxSizing: "border-box",
  // The trading desk uses the whole window: traders run it full screen on wide monitors.
  selectors: { "&:has([data-desk])": { maxWidth: "none", padding: "0 8px 8px" } },
});

export const footer = style({
  padding: "24px 16px 16px",
  borderTop: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  fontSize: 13,
  display: "grid",
  // One column no wider than the page: an auto track would take the link grid's intrinsic width
  // (all its columns side by side), and a phone would lay the whole page out ~860 px wide.
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: 16,
});

/** The footer's link groups: as many columns as fit, one under another on a phone. */
export const footerNav = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))",
  gap: "16px 24px",
  maxWidth: 1200,
  width: "100%",
  margin: "0 auto",
});

export const footerTitle = style({ fontSize: 13, fontWeight: 600, color: vars.color.text, margin: "0 0 8px" });

export const footerList = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 2 });

export const footerLink = style({
  color: vars.color.textMuted,
  textDecoration: "none",
  display: "inline-block",
  // A 24 px target at least, for a finger on a phone.
  padding: "3px 0",
  selectors: { "&:hover": { color: vars.color.text, textDecoration: "underline" } },
});

export const footerNote = style({ maxWidth: 1200, width: "100%", margin: "0 auto", fontSize: 12 });

export const visuallyHidden = style({
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  border: 0,
});

export const skipLink = style({
  position: "absolute",
  left: -9999,
  selectors: { "&:focus": { left: 16, top: 8, zIndex: 100, background: vars.color.surface, padding: 8 } },
});

const slide = keyframes({ "0%": { transform: "translateX(-100%)" }, "100%": { transform: "translateX(250%)" } });

export const progress = style({
  position: "fixed",
  top: 0,
  left: 0,
  right: 0,
  height: 3,
  overflow: "hidden",
  zIndex: 50,
  "::after": {
    content: "''",
    display: "block",
    width: "40%",
    height: "100%",
    background: vars.color.accent,
    animation: `${slide} 1.1s ease-in-out infinite`,
  },
});

export const banner = style({
  position: "fixed",
  left: 16,
  right: 16,
  bottom: 16,
  maxWidth: 720,
  margin: "0 auto",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: 16,
  boxShadow: "0 8px 30px rgba(0,0,0,0.35)",
  zIndex: 40,
});

export const bannerRow = style({ display: "flex", gap: 12, flexWrap: "wrap", alignItems: "center", marginTop: 12 });

export const notice = style({
  display: "flex",
  alignItems: "center",
  gap: 12,
  padding: "8px 16px",
  background: vars.color.warning,
  color: "#111",
  fontWeight: 500,
});

export const noticeText = style({ flex: 1 });
