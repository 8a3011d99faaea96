// .css.tsx rather than .css.ts: tsconfig.node.json takes every bench/**/*.ts as Node code, which cannot
// see the theme contract in src/ui; as .tsx this browser-only style file is checked with the page.
import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "../../src/ui/theme/contract.css";

/** One desk book's box: both implementations get exactly this. */
export const cell = style({ overflow: "hidden", position: "relative", background: vars.color.surface });

export const grid = style({ display: "grid", gap: 8, padding: 9 });

/**
 * @lab49/react-order-book ships no styles (its README: style it through its class names); these
 * give it the desk book's font, row height and colours, so the two draw comparable boxes.
 */
export const lab49 = style({
  height: "100%",
  overflowY: "auto",
  color: vars.color.text,
  fontSize: 12,
  lineHeight: "20px",
});

const P = `${lab49} .rob_OrderBook`;
globalStyle(P, { minHeight: "100%", gap: 4, fontVariantNumeric: "tabular-nums" });
globalStyle(`${P}__side`, { flex: "1 1 0", minWidth: 0, overflow: "hidden" });
globalStyle(`${P}__side-header, ${P}__spread-header`, { margin: 0, color: vars.color.textMuted });
globalStyle(`${P}__spread`, { flex: "0 0 auto", padding: "0 6px", textAlign: "center" });
globalStyle(`${P}__list`, { listStyle: "none", margin: 0, padding: 0 });
globalStyle(`${P}__list-item`, { display: "flex", justifyContent: "space-between", height: 20, padding: "0 6px" });
globalStyle(`${P}__side--bids .rob_OrderBook__price`, { color: vars.color.up });
globalStyle(`${P}__side--asks .rob_OrderBook__price`, { color: vars.color.down });
