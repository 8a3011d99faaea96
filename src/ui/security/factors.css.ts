/** The SMS and PGP key cards of the security page, in the account pages' card look. */
import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export {
  alert,
  badgeOff,
  badgeOn,
  cardShrinks as card,
  danger,
  field,
  h3,
  hint,
  cardHead as head,
} from "../account/account-page.css";

/** The key's status: a pill, amber while pending, green once active. */
export const pillPending = style({
  fontSize: 12,
  fontWeight: 600,
  padding: "2px 8px",
  borderRadius: 999,
  border: `1px solid ${vars.color.accent}`,
  color: vars.color.text,
});
export const pillActive = style([pillPending, { borderColor: vars.color.success, color: vars.color.success }]);
export const form = style({ display: "grid", gap: 14, maxWidth: 420 });
export const wide = style({ display: "grid", gap: 14, maxWidth: 640 });
export const input = style({
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  padding: "8px 10px",
  font: "inherit",
  minWidth: 0,
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const phoneRow = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1.2fr) minmax(0, 1fr)",
  gap: 8,
  "@media": { "screen and (max-width: 420px)": { gridTemplateColumns: "minmax(0, 1fr)" } },
});
export const textarea = style([
  input,
  { fontFamily: vars.font.mono, fontSize: 12, minHeight: 160, resize: "vertical", width: "100%" },
]);
export const fieldError = style({ color: vars.color.danger, fontSize: 12 });
export const actions = style({ display: "flex", gap: 12, flexWrap: "wrap", alignItems: "center" });
export const cta = style({
  background: vars.color.accent,
  color: vars.color.accentText,
  border: "none",
  padding: "10px 18px",
  borderRadius: 8,
  font: "inherit",
  fontWeight: 600,
  cursor: "pointer",
  selectors: { "&:disabled": { opacity: 0.6, cursor: "default" } },
});
export const linkButton = style({
  background: "none",
  border: "none",
  padding: 0,
  color: vars.color.accent,
  cursor: "pointer",
  font: "inherit",
  textDecoration: "underline",
  selectors: { "&:disabled": { color: vars.color.textMuted, cursor: "default", textDecoration: "none" } },
});
export const mono = style({ fontFamily: vars.font.mono, fontSize: 13, wordBreak: "break-all" });
export const facts = style({ margin: 0, display: "grid", gap: 6, fontSize: 14 });
globalStyle(`${facts} dd`, { margin: 0 });
