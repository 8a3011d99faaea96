import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";

/** The sign-up's step list: where the person is, in words (aria-current), not by colour alone. */
export const steps = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "6px 14px",
  listStyle: "none",
  padding: 0,
  margin: "0 0 20px",
  fontSize: 13,
  color: vars.color.textMuted,
});
export const stepItem = style({
  selectors: { '&[aria-current="step"]': { color: vars.color.text, fontWeight: 700, textDecoration: "underline" } },
});
/** The password rules, each met or not in words ("met" / "not yet") beside its mark. */
export const rules = style({ listStyle: "none", padding: 0, margin: "4px 0 0", display: "grid", gap: 2, fontSize: 13 });
export const ruleMet = style({ color: vars.color.up });
export const ruleOpen = style({ color: vars.color.textMuted });
export const check = style({ display: "flex", gap: 8, alignItems: "flex-start" });
export const dialogBody = style({ display: "grid", gap: 12, maxWidth: 520 });
export const dialogActions = style({ display: "flex", gap: 12, flexWrap: "wrap", justifyContent: "flex-end" });
export const terms = style({
  margin: 0,
  paddingLeft: 20,
  display: "grid",
  gap: 6,
  maxHeight: "50vh",
  overflowY: "auto",
});
export const button = style({
  background: "transparent",
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  padding: "10px 18px",
  font: "inherit",
  cursor: "pointer",
});
export const select = style({
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "8px 10px",
  font: "inherit",
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
