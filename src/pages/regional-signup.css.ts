import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";

/** The application form: two columns on a desktop, one on a phone. */
export const form = style({ display: "grid", gap: 18, maxWidth: 640 });
export const fieldset = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: "12px 16px 16px",
  margin: 0,
  display: "grid",
  gridTemplateColumns: "1fr 1fr",
  gap: 14,
  "@media": { "screen and (max-width: 560px)": { gridTemplateColumns: "1fr" } },
});
export const legend = style({ fontWeight: 700, padding: "0 6px" });
/** A field that takes the whole row (the street, the statements). */
export const wide = style({ gridColumn: "1 / -1" });
/** What happens next, numbered. */
export const next = style({ margin: "0 0 20px", paddingLeft: 22, display: "grid", gap: 8, maxWidth: 640 });
export const reference = style({ fontFamily: vars.font.mono, fontWeight: 700, letterSpacing: "0.04em" });
/** The submitted page's closing hint, set off from the button below it. */
export const after = style({ margin: "0 0 18px" });
/** The venue's country: shown in the form, not chosen there. */
export const fixed = style({ color: vars.color.textMuted, background: "transparent", borderStyle: "dashed" });
