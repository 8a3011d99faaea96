import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { compactSelect, panel } from "../../../desk/widgets/widget-chrome.css";

export const ROW_HEIGHT = 20;

/** The depth bar's width, written per row without a React render. */
export const DEPTH_PROPERTY = "--funding-depth";

export const root = style([panel, { position: "relative", containerType: "inline-size" }]);

export const label = style({ color: vars.color.textMuted });
export const select = style([compactSelect, { font: "inherit" }]);

/** Rate, period, count, amount (the heads and cells are the trades tape's). */
export const columns = style({ selectors: { "&&": { gridTemplateColumns: "1.2fr 0.9fr 0.6fr 1.1fr" } } });

/** The list scrolls as the trades tape's panel does; its focus ring is drawn inside. */
export const scroller = style({
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 } },
});

export const spacerBox = style({ position: "relative", width: "100%" });

export const row = style({
  position: "absolute",
  left: 0,
  right: 0,
  display: "grid",
  alignItems: "center",
  height: ROW_HEIGHT,
  vars: { [DEPTH_PROPERTY]: "0%" },
  selectors: {
    // The depth bar: the level's cumulative amount against the deepest in view, from the right.
    '&[data-side="bid"]': {
      background: `linear-gradient(to left, ${vars.color.upSoft} var(${DEPTH_PROPERTY}), transparent var(${DEPTH_PROPERTY}))`,
    },
    '&[data-side="ask"]': {
      background: `linear-gradient(to left, ${vars.color.downSoft} var(${DEPTH_PROPERTY}), transparent var(${DEPTH_PROPERTY}))`,
    },
    // The last offer's row: the line where the offers end and the bids begin.
    "&[data-mid]": { borderBottom: `1px solid ${vars.color.border}` },
    "&[data-empty]": { visibility: "hidden" },
  },
});

/** Where the waiting note sits: over the list, under the heads. */
export const note = style({ position: "absolute", inset: "48px 0 0 0", pointerEvents: "none" });
