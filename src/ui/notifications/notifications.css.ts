import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";
import { phoneCardTable, pill } from "../account/account-page.css";

export { cardShrinks as card, h2, muted, scroll, th } from "../account/account-page.css";

export const page = style({ display: "grid", gap: 16, maxWidth: 1040, minWidth: 0 });
export const fieldset = style({
  border: 0,
  padding: 0,
  margin: 0,
  display: "grid",
  gap: 8,
  minWidth: 0,
  alignContent: "start",
});
export const legend = style({ fontWeight: 600, padding: 0, marginBottom: 6 });
export const check = style({ display: "flex", gap: 10, alignItems: "center", fontSize: 14, minHeight: 28 });
export const columns = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(260px, 1fr))",
  gap: 20,
});
export const campaigns = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 10 });
export const campaign = style({
  display: "grid",
  gridTemplateColumns: "1fr auto",
  gap: "6px 16px",
  alignItems: "center",
  padding: "10px 0",
  borderTop: `1px solid ${vars.color.border}`,
  "@media": { "screen and (max-width: 560px)": { gridTemplateColumns: "1fr" } },
});
export const campaignName = style({ fontWeight: 600, margin: 0, fontSize: 15 });
export const row = style({ display: "flex", flexWrap: "wrap", gap: 8, alignItems: "center" });
/** A form's fields and its button on one line: the button sits level with the fields, under their labels. */
export const formRow = style([row, { alignItems: "end" }]);
export const badgeOn = style([pill, { color: vars.color.success, borderColor: vars.color.success }]);
export const badgeWait = style([pill, { color: vars.color.text, borderColor: vars.color.accent }]);
export const button = style({
  font: "inherit",
  fontSize: 14,
  padding: "6px 12px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  cursor: "pointer",
  selectors: { "&:disabled": { opacity: 0.6, cursor: "default" } },
});
export const primary = style([
  button,
  { background: vars.color.accent, color: vars.color.accentText, borderColor: vars.color.accent, fontWeight: 600 },
]);
export const select = style({
  font: "inherit",
  fontSize: 14,
  padding: "6px 10px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
});
/** On a phone the history's rows become small cards: time and status, then type, then the message. */
const NARROW = "screen and (max-width: 560px)";
export const { table, thead, tbody } = phoneCardTable(NARROW);
export const tr = style({
  "@media": {
    [NARROW]: {
      display: "grid",
      gridTemplateColumns: "1fr auto",
      gridTemplateAreas: '"time status" "type type" "message message"',
      gap: "2px 12px",
      padding: "8px 0",
      borderBottom: `1px solid ${vars.color.border}`,
    },
  },
});
export const td = style({
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "top",
  "@media": { [NARROW]: { display: "block", padding: 0, borderBottom: 0 } },
});
export const cellTime = style({
  whiteSpace: "nowrap",
  fontVariantNumeric: "tabular-nums",
  "@media": { [NARROW]: { gridArea: "time", color: vars.color.textMuted, fontSize: 13 } },
});
export const cellType = style({ whiteSpace: "nowrap", "@media": { [NARROW]: { gridArea: "type" } } });
export const cellStatus = style({ "@media": { [NARROW]: { gridArea: "status", fontSize: 13 } } });
export const cellMessage = style({ "@media": { [NARROW]: { gridArea: "message" } } });
export const unread = style({ fontWeight: 600 });
export const error = style({ color: vars.color.danger, margin: 0, fontSize: 14 });
export const success = style({ color: vars.color.success, margin: 0, fontSize: 14 });
export const level = style({
  selectors: {
    '&[data-level="error"]': { color: vars.color.danger },
    '&[data-level="success"]': { color: vars.color.success },
  },
});
export const signup = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
  padding: 16,
  marginTop: 24,
  display: "grid",
  gap: 10,
  maxWidth: 760,
});
export const label = style({ display: "grid", gap: 4, fontSize: 14, flex: "1 1 200px", minWidth: 0 });
