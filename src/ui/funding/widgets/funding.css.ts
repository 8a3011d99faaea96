import { style } from "@vanilla-extract/css";
import { vars } from "../../theme/contract.css";

/**
 * A rate cell: bold, coloured by its side — a book row's (`data-side`: bids up, offers down) or a
 * trade's (`data-dir`: the taker's side).
 */
export const rate = style({
  textAlign: "left",
  fontWeight: 600,
  selectors: {
    '[data-side="bid"] > &, [data-dir="up"] > &': { color: vars.color.up },
    '[data-side="ask"] > &, [data-dir="down"] > &': { color: vars.color.down },
  },
});
