/**
 * The look the account pages share (security, address book, sub-accounts, wallets, deposit,
 * notifications, API keys): a card with its head and headings, status words and pills, a table's
 * scroll region and header cells, hints, alerts and a form field. Each page's own `.css.ts` keeps
 * only what is its own and re-exports these under the names its components use.
 */
import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

export const card = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  background: vars.color.surface,
  padding: "16px 18px",
  display: "grid",
  gap: 12,
});
/** A card that may shrink below its content's width (a grid item whose table scrolls sideways). */
export const cardShrinks = style([card, { minWidth: 0 }]);
/** A card's title and its status on one line, the status pushed to the end. */
export const cardHead = style({
  display: "flex",
  flexWrap: "wrap",
  gap: 8,
  alignItems: "baseline",
  justifyContent: "space-between",
});
export const h2 = style({ margin: 0, fontSize: 17 });
export const h3 = style({ margin: 0, fontSize: 16 });
/** A factor's state in a card's head: on in green, off in muted text (the words say which). */
export const badgeOn = style({ color: vars.color.success, fontWeight: 600, fontSize: 13 });
export const badgeOff = style({ color: vars.color.textMuted, fontWeight: 600, fontSize: 13 });
/** A small rounded status label; pages colour it per state by composing it. */
export const pill = style({
  display: "inline-block",
  fontSize: 12,
  fontWeight: 600,
  padding: "2px 8px",
  borderRadius: 999,
  whiteSpace: "nowrap",
  border: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
});
export const muted = style({ color: vars.color.textMuted, margin: 0, fontSize: 14 });
export const hint = style({ color: vars.color.textMuted, fontSize: 13, margin: 0 });
export const success = style({ color: vars.color.success, fontWeight: 600, margin: 0 });
export const alert = style({
  border: `1px solid ${vars.color.danger}`,
  background: vars.color.surfaceRaised,
  padding: "10px 12px",
  borderRadius: 8,
  margin: 0,
});
/** A label over its input (and its hint or error below). */
export const field = style({ display: "grid", gap: 4 });
export const select = style({
  font: "inherit",
  padding: "8px 10px",
  borderRadius: 6,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
});
/** An outlined button for what removes or turns off. */
export const danger = style({
  background: "transparent",
  color: vars.color.danger,
  border: `1px solid ${vars.color.danger}`,
  borderRadius: 6,
  padding: "6px 12px",
  font: "inherit",
  cursor: "pointer",
  selectors: { "&:disabled": { opacity: 0.6, cursor: "default" } },
});
/** A table's region: the table scrolls sideways inside it instead of widening the page. */
export const scroll = style({ overflowX: "auto", maxWidth: "100%" });
export const table = style({ borderCollapse: "collapse", width: "100%", fontSize: 14 });
export const th = style({
  textAlign: "start",
  fontWeight: 600,
  color: vars.color.textMuted,
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap",
});

/**
 * A table whose rows become small cards below `narrow` (a media query): the header row hidden but
 * still read by screen readers, the body and each cell blocks. Each page lays its cards out with its
 * own row style (which cell goes where).
 */
export function phoneCardTable(narrow: string): { table: string; thead: string; tbody: string } {
  return {
    table: style([table, { "@media": { [narrow]: { display: "block" } } }]),
    thead: style({
      "@media": {
        [narrow]: {
          position: "absolute",
          width: 1,
          height: 1,
          overflow: "hidden",
          clip: "rect(0 0 0 0)",
          whiteSpace: "nowrap",
        },
      },
    }),
    tbody: style({ "@media": { [narrow]: { display: "block" } } }),
  };
}
