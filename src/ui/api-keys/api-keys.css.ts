import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export { alert, field, hint, muted } from "../account/account-page.css";

export const page = style({ padding: "32px 0 48px", maxWidth: 880 });

export const sectionHead = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: 12,
  flexWrap: "wrap",
  margin: "28px 0 12px",
});

export const h2 = style({ fontSize: 20, margin: 0 });

export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 12 });

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: 16,
  display: "grid",
  gap: 8,
});

export const cardHead = style({ display: "flex", gap: 12, alignItems: "baseline", flexWrap: "wrap" });
// The name takes the line's room and pushes the date below it on a narrow screen, not into a sliver.
export const cardTitle = style({ margin: 0, fontSize: 17, flex: "1 1 14rem", overflowWrap: "anywhere" });

export const mono = style({ fontFamily: vars.font.mono, fontSize: 13, overflowWrap: "anywhere" });

export const chips = style({ display: "flex", flexWrap: "wrap", gap: 6, listStyle: "none", margin: 0, padding: 0 });
export const chip = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 999,
  padding: "2px 10px",
  fontSize: 13,
});
export const chipWrite = style([chip, { borderColor: vars.color.warning }]);

export const row = style({ display: "flex", gap: 10, flexWrap: "wrap", alignItems: "center" });

export const button = style({
  background: vars.color.accent,
  color: vars.color.accentText,
  border: "none",
  borderRadius: 8,
  padding: "9px 16px",
  fontWeight: 600,
  cursor: "pointer",
  minHeight: 40,
  selectors: { "&:disabled": { opacity: 0.6, cursor: "default" } },
});
export const ghost = style([
  button,
  { background: "transparent", color: vars.color.text, border: `1px solid ${vars.color.border}`, fontWeight: 500 },
]);
export const danger = style([
  button,
  { background: "transparent", color: vars.color.danger, border: `1px solid ${vars.color.danger}`, fontWeight: 500 },
]);

export const form = style({ display: "grid", gap: 16, maxWidth: 560 });
export const input = style({
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "8px 10px",
  font: "inherit",
  minHeight: 40,
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const textarea = style([input, { minHeight: 72, resize: "vertical", fontFamily: vars.font.mono }]);
export const fieldError = style({ color: vars.color.danger, fontSize: 13, margin: 0 });
export const warning = style({
  border: `1px solid ${vars.color.warning}`,
  background: vars.color.surfaceRaised,
  padding: "10px 12px",
  borderRadius: 8,
  margin: 0,
});

export const matrix = style({ borderCollapse: "collapse", width: "100%", maxWidth: 420 });
export const matrixCaption = style({ textAlign: "left", fontWeight: 600, padding: "0 0 6px" });
export const matrixCell = style({
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  textAlign: "center",
});
export const matrixScope = style([matrixCell, { textAlign: "left" }]);
export const checkbox = style({ width: 20, height: 20, accentColor: vars.color.accent });

export const fieldset = style({ border: "none", padding: 0, margin: 0, display: "grid", gap: 8 });

export const dialog = style({
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 12,
  padding: 20,
  width: "min(560px, calc(100vw - 24px))",
  maxHeight: "calc(100vh - 24px)",
  overflowY: "auto",
  boxSizing: "border-box",
  selectors: { "&::backdrop": { background: "rgba(0,0,0,0.55)" } },
});
export const dialogTitle = style({ margin: "0 0 12px", fontSize: 20 });
export const dialogBody = style({ display: "grid", gap: 14 });

export const secretRow = style({ display: "flex", gap: 8, alignItems: "stretch" });
export const secretInput = style([input, { flex: 1, minWidth: 0, fontFamily: vars.font.mono, fontSize: 13 }]);
