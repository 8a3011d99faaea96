import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export { alert, field, hint, select, success } from "../account/account-page.css";
export { button, checkbox, ghost } from "../api-keys/api-keys.css";

export const form = style({ display: "grid", gap: 14 });
export const grid = style({ display: "grid", gap: 12, gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))" });
export const actions = style({ display: "flex", gap: 10, justifyContent: "flex-end", flexWrap: "wrap" });

/** The quote: rate, fee, what is received, and how long it holds. */
export const quote = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
  padding: "12px 14px",
  display: "grid",
  gap: 10,
  margin: 0,
});
export const figures = style({
  display: "grid",
  gridTemplateColumns: "max-content 1fr",
  gap: "6px 16px",
  margin: 0,
  "@media": { "screen and (max-width: 420px)": { gridTemplateColumns: "1fr" } },
});
export const term = style({ color: vars.color.textMuted, fontSize: 13, alignSelf: "center" });
export const figure = style({
  margin: 0,
  fontVariantNumeric: "tabular-nums",
  overflowWrap: "anywhere",
  textAlign: "end",
  "@media": { "screen and (max-width: 420px)": { textAlign: "start" } },
});
export const receive = style([figure, { fontSize: 18, fontWeight: 600 }]);
export const timer = style({ fontSize: 13, color: vars.color.textMuted, margin: 0 });

/** The agreement's summary: a short text in a bordered box that scrolls when it is long. */
export const terms = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  background: vars.color.surface,
  padding: "10px 12px",
  maxHeight: 240,
  overflowY: "auto",
  display: "grid",
  gap: 8,
});
export const termsText = style({ margin: 0, fontSize: 14, lineHeight: 1.5 });
export const agree = style({ display: "flex", gap: 10, alignItems: "center" });

/** The wallets table's per-row action. */
export const rowAction = style({
  font: "inherit",
  fontSize: 13,
  padding: "4px 10px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: "transparent",
  color: vars.color.text,
  cursor: "pointer",
  whiteSpace: "nowrap",
});
