import { style } from "@vanilla-extract/css";
import { vars } from "../ui/theme/contract.css";
import { table as accountTable } from "../ui/account/account-page.css";

export { badgeOff, badgeOn, card, cardHead, danger, h3, scroll, th } from "../ui/account/account-page.css";

export const page = style({ display: "grid", gap: 8, maxWidth: 980 });
export const setup = style({
  display: "grid",
  gap: 16,
  gridTemplateColumns: "auto minmax(0, 1fr)",
  alignItems: "start",
  "@media": { "screen and (max-width: 640px)": { gridTemplateColumns: "minmax(0, 1fr)" } },
});
export const secret = style({
  fontFamily: vars.font.mono,
  fontSize: 15,
  letterSpacing: "0.08em",
  wordBreak: "break-all",
  background: vars.color.surfaceRaised,
  padding: "6px 8px",
  borderRadius: 6,
});
export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 10 });
export const item = style({
  display: "grid",
  gap: 8,
  paddingBottom: 10,
  borderBottom: `1px solid ${vars.color.border}`,
  selectors: { "&:last-child": { borderBottom: "none", paddingBottom: 0 } },
});
export const itemHead = style({
  display: "flex",
  flexWrap: "wrap",
  gap: 12,
  alignItems: "center",
  justifyContent: "space-between",
});
export const row = style({ display: "flex", flexWrap: "wrap", gap: 10, alignItems: "end" });
export const table = style([accountTable, { minWidth: 560 }]);
// One line per row: on a phone the table scrolls sideways (its region is focusable) rather than
// wrapping each date over several lines.
export const td = style({
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "top",
  whiteSpace: "nowrap",
});
export const agent = style({ maxWidth: 240, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" });
export const failed = style({ color: vars.color.danger, fontWeight: 600 });
export const current = style({ color: vars.color.success, fontWeight: 600, marginInlineStart: 6 });
