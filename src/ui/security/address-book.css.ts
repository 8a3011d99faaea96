import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export { h2 } from "../account/account-page.css";

export const toolbar = style({
  display: "flex",
  flexWrap: "wrap",
  gap: 10,
  alignItems: "center",
  margin: "8px 0 16px",
});

export const currency = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
  padding: "14px 16px",
  display: "grid",
  gap: 12,
  marginBottom: 12,
});

export const currencyHead = style({
  display: "flex",
  flexWrap: "wrap",
  gap: 10,
  alignItems: "center",
  justifyContent: "space-between",
});

export const controls = style({ display: "flex", flexWrap: "wrap", gap: 14, alignItems: "center" });

export const switchLabel = style({
  display: "inline-flex",
  gap: 8,
  alignItems: "center",
  cursor: "pointer",
  minHeight: 40,
});
export const switchInput = style({ width: 18, height: 18, accentColor: vars.color.accent, margin: 0 });

export const entries = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 10 });
export const entry = style({
  display: "grid",
  gap: 6,
  paddingTop: 10,
  borderTop: `1px solid ${vars.color.border}`,
});
export const entryHead = style({ display: "flex", flexWrap: "wrap", gap: 8, alignItems: "baseline" });
export const entryLabel = style({ fontWeight: 600, flex: "1 1 12rem", overflowWrap: "anywhere" });
export const address = style({ fontFamily: vars.font.mono, fontSize: 13, overflowWrap: "anywhere", margin: 0 });

const badge = style({ fontSize: 12, fontWeight: 600, borderRadius: 999, padding: "2px 10px", border: "1px solid" });
export const confirmed = style([badge, { color: vars.color.success, borderColor: vars.color.success }]);
export const pending = style([badge, { color: vars.color.warning, borderColor: vars.color.warning }]);
export const expired = style([badge, { color: vars.color.danger, borderColor: vars.color.danger }]);
export const off = style([badge, { color: vars.color.danger, borderColor: vars.color.danger }]);
/** A loosening waiting for the owner's mailed link, with its cancel button. */
export const waiting = style({
  display: "flex",
  flexWrap: "wrap",
  gap: 10,
  alignItems: "center",
  fontSize: 14,
  color: vars.color.warning,
});

export const rowsList = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 12 });
export const addressRow = style({ display: "grid", gap: 6 });
export const ok = style({ color: vars.color.success, fontSize: 13, margin: 0 });
export const problem = style({ color: vars.color.danger, fontSize: 13, margin: 0 });

export const choice = style({ display: "flex", gap: 8, alignItems: "center", minHeight: 32 });
export const fieldset = style({ border: "none", margin: 0, padding: 0, display: "grid", gap: 8 });
export const legend = style({ padding: 0, marginBottom: 4, fontWeight: 600 });
