import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";

/** The password / API-key switch on the login page. */
export const tabs = style({
  display: "inline-flex",
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  overflow: "hidden",
  marginBottom: 18,
});

export const tab = style({
  background: "transparent",
  color: vars.color.textMuted,
  border: "none",
  padding: "8px 16px",
  cursor: "pointer",
  font: "inherit",
  selectors: {
    '&[aria-selected="true"]': { background: vars.color.accent, color: vars.color.accentText, fontWeight: 600 },
  },
});

export const captcha = style({
  display: "grid",
  gap: 8,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: 8,
  padding: 12,
});

/** Where the captcha check says how it is going (in words: no colour or icon carries it alone). */
export const captchaStatus = style({ margin: 0, fontWeight: 600 });

export const linkButton = style({
  background: "none",
  border: "none",
  padding: 0,
  color: vars.color.accent,
  cursor: "pointer",
  font: "inherit",
  textDecoration: "underline",
  justifySelf: "start",
});

export const hint = style({ color: vars.color.textMuted, fontSize: 13, margin: 0 });

export const rating = style({ display: "flex", gap: 6, border: "none", padding: 0, margin: 0 });

export const ratingOption = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  minWidth: 40,
  height: 36,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  cursor: "pointer",
  selectors: { "&:has(input:checked)": { background: vars.color.accent, color: vars.color.accentText } },
});

export const ratingInput = style({ position: "absolute", opacity: 0, width: 1, height: 1 });

export const textarea = style({
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "8px 10px",
  minHeight: 90,
  font: "inherit",
  resize: "vertical",
});
