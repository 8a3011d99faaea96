/**
 * The "Your reports" rows on a phone (docs/product-rules.md#reports): each a small card — what and
 * its status, then its dates, rows and expiry, then the download button — on the reports page's
 * table (src/pages/reports.css.ts).
 */
import { style } from "@vanilla-extract/css";
import { td } from "../../pages/reports.css";
import { vars } from "../theme/contract.css";

const NARROW = "screen and (max-width: 640px)";

export const what = style([td, { "@media": { [NARROW]: { order: 1, flex: "1 1 50%", fontWeight: 600 } } }]);
export const status = style([td, { "@media": { [NARROW]: { order: 2, marginInlineStart: "auto" } } }]);
export const dates = style([
  td,
  { "@media": { [NARROW]: { order: 3, flexBasis: "100%", color: vars.color.textMuted, fontSize: 13 } } },
]);
export const rows = style([
  td,
  { textAlign: "end", fontVariantNumeric: "tabular-nums", "@media": { [NARROW]: { order: 4, textAlign: "start" } } },
]);
export const expires = style([
  td,
  { "@media": { [NARROW]: { order: 5, color: vars.color.textMuted, fontSize: 13, marginInlineStart: "auto" } } },
]);
export const action = style([td, { "@media": { [NARROW]: { order: 6, flexBasis: "100%" } } }]);
