import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";

/** Every book row is this tall; the virtualizer relies on it (no measuring). */
export const ROW_HEIGHT = 20;

export const root = style({
  height: "100%",
  display: "flex",
  flexDirection: "column",
  minHeight: 0,
  minWidth: 0,
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: 12,
  position: "relative",
  containerType: "inline-size",
});

export const toolbar = style({
  display: "flex",
  alignItems: "center",
  gap: 6,
  padding: "4px 6px",
  borderBottom: `1px solid ${vars.color.border}`,
  flexWrap: "wrap",
  flex: "0 0 auto",
});

export const group = style({
  display: "inline-flex",
  border: `1px solid ${vars.color.border}`,
  borderRadius: 5,
  overflow: "hidden",
});

export const toggle = style({
  background: "transparent",
  color: vars.color.textMuted,
  border: "none",
  padding: "2px 6px",
  font: "inherit",
  fontSize: 11,
  lineHeight: "16px",
  cursor: "pointer",
  display: "inline-flex",
  alignItems: "center",
  gap: 3,
  selectors: {
    "& + &": { borderLeft: `1px solid ${vars.color.border}` },
    "&:hover": { color: vars.color.text, background: vars.color.surfaceRaised },
    '&[aria-pressed="true"]': { color: vars.color.accentText, background: vars.color.accent },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 },
  },
});

export const icon = style({ width: 14, height: 14, display: "block", fill: "currentColor" });

export const select = style({
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 5,
  font: "inherit",
  fontSize: 11,
  padding: "1px 2px",
  height: 22,
});

export const spacer = style({ flex: "1 1 auto" });

export const spreadBar = style({
  display: "flex",
  justifyContent: "center",
  alignItems: "center",
  gap: 6,
  height: ROW_HEIGHT,
  color: vars.color.textMuted,
  fontVariantNumeric: "tabular-nums",
  borderBottom: `1px solid ${vars.color.border}`,
  flex: "0 0 auto",
});

export const spreadValue = style({ color: vars.color.text, fontFamily: vars.font.mono });

export const heads = style({
  display: "flex",
  overflowY: "hidden",
  scrollbarGutter: "stable",
  scrollbarWidth: "thin",
  flex: "0 0 auto",
  color: vars.color.textMuted,
  fontSize: 11,
  height: 18,
  alignItems: "center",
  borderBottom: `1px solid ${vars.color.border}`,
});

export const headCell = style({ padding: "0 4px", overflow: "hidden", whiteSpace: "nowrap", textOverflow: "ellipsis" });

export const scroller = style({
  flex: "1 1 auto",
  minHeight: 0,
  overflowY: "auto",
  overflowX: "hidden",
  position: "relative",
  contain: "strict",
  scrollbarGutter: "stable",
  scrollbarWidth: "thin",
  outline: "none",
  fontFamily: vars.font.mono,
  fontVariantNumeric: "tabular-nums",
  selectors: { "&:focus-visible": { boxShadow: `inset 0 0 0 2px ${vars.color.focus}` } },
});

export const row = style({
  position: "absolute",
  top: 0,
  left: 0,
  width: "100%",
  height: ROW_HEIGHT,
  display: "flex",
  contain: "layout style",
});

/** Columns of one half-row: count | amount | total | price (bids, side by side) and mirrors. */
export const half = style({
  position: "relative",
  // Its own stacking context, so the depth bar (z-index -1) paints between the half's background
  // and the cells, without every cell being a positioned layer of its own (bench:ui: fewer paint
  // layers and chunks for the compositor to sort through every frame).
  isolation: "isolate",
  flex: "1 1 0",
  minWidth: 0,
  display: "grid",
  alignItems: "center",
  height: ROW_HEIGHT,
  selectors: {
    '&[data-own="true"]::before': {
      content: '""',
      position: "absolute",
      top: 6,
      width: 0,
      height: 0,
      borderTop: "4px solid transparent",
      borderBottom: "4px solid transparent",
      zIndex: 1,
    },
  },
});

export const halfVariants = styleVariants({
  // Own-order markers sit on the outer edge, away from the prices in the middle.
  sideBid: {
    gridTemplateColumns: "0.7fr 1fr 1fr 1fr",
    gridTemplateAreas: '"count amount total price"',
    selectors: { '&[data-own="true"]::before': { left: 0, borderLeft: `5px solid ${vars.color.accent}` } },
  },
  sideAsk: {
    gridTemplateColumns: "1fr 1fr 1fr 0.7fr",
    gridTemplateAreas: '"price total amount count"',
    selectors: { '&[data-own="true"]::before': { right: 0, borderRight: `5px solid ${vars.color.accent}` } },
  },
  stacked: {
    gridTemplateColumns: "1fr 1fr 1fr 0.6fr",
    gridTemplateAreas: '"price amount total count"',
    selectors: { '&[data-own="true"]::before': { left: 0, borderLeft: `5px solid ${vars.color.accent}` } },
  },
  ladderBid: {
    gridTemplateColumns: "1fr 1fr 1fr 1fr 1fr",
    gridTemplateAreas: '"total amount price . ."',
    selectors: { '&[data-own="true"]::before': { left: 0, borderLeft: `5px solid ${vars.color.accent}` } },
  },
  ladderAsk: {
    gridTemplateColumns: "1fr 1fr 1fr 1fr 1fr",
    gridTemplateAreas: '". . price amount total"',
    selectors: { '&[data-own="true"]::before': { right: 0, borderRight: `5px solid ${vars.color.accent}` } },
  },
});

/**
 * A depth bar is sized by its width (the painter writes a percentage of the half), not by a
 * transform: a transform is a paint property, and changing hundreds of them per frame made the
 * browser re-layerize the whole page every frame (bench:ui); a width change lays out and repaints
 * the bar alone.
 */
export const bar = style({
  position: "absolute",
  top: 1,
  bottom: 1,
  width: 0,
  zIndex: -1,
  pointerEvents: "none",
});

export const barVariants = styleVariants({
  /** Grows from the right edge leftwards. */
  bidRight: { background: vars.color.upSoft, right: 0 },
  askRight: { background: vars.color.downSoft, right: 0 },
  askLeft: { background: vars.color.downSoft, left: 0 },
  /** Ladder: a bid's bar covers the two left columns and grows out from the price column. */
  ladderBid: { background: vars.color.upSoft, right: "60%" },
  ladderAsk: { background: vars.color.downSoft, left: "60%" },
});

/** The share of the half (in %) a full bar of each variant covers. */
export const BAR_SPAN: Record<keyof typeof barVariants, number> = {
  bidRight: 100,
  askRight: 100,
  askLeft: 100,
  ladderBid: 40,
  ladderAsk: 40,
};

const cellBase = {
  padding: "0 6px",
  overflow: "hidden",
  whiteSpace: "nowrap",
  textOverflow: "clip",
  lineHeight: `${ROW_HEIGHT}px`,
  minWidth: 0,
} as const;

export const cell = styleVariants({
  count: { ...cellBase, gridArea: "count", color: vars.color.textMuted },
  amount: { ...cellBase, gridArea: "amount" },
  total: { ...cellBase, gridArea: "total", color: vars.color.textMuted },
  price: { ...cellBase, gridArea: "price", fontWeight: 600 },
});

export const alignRight = style({ textAlign: "right" });
export const alignLeft = style({ textAlign: "left" });
export const alignCenter = style({ textAlign: "center" });

/** Price and amount are buttons (keyboard and screen readers); they look like plain cells. */
export const cellButton = style({
  background: "transparent",
  border: "none",
  font: "inherit",
  color: "inherit",
  cursor: "pointer",
  height: ROW_HEIGHT,
  width: "100%",
  selectors: {
    "&:hover": { textDecoration: "underline" },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 },
  },
});

export const priceBid = style({ color: vars.color.up });
export const priceAsk = style({ color: vars.color.down });

// The hovered level and the better ones on its side: what a market order for that total would take.
globalStyle(`${half}[data-swept="true"]`, { background: vars.color.surfaceRaised });

globalStyle(`${half}[data-empty="true"] button`, { cursor: "default", pointerEvents: "none" });

export const spreadRow = style({
  position: "absolute",
  top: 0,
  left: 0,
  width: "100%",
  height: ROW_HEIGHT,
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  gap: 6,
  color: vars.color.textMuted,
  background: vars.color.surfaceRaised,
  borderTop: `1px solid ${vars.color.border}`,
  borderBottom: `1px solid ${vars.color.border}`,
  boxSizing: "border-box",
  fontFamily: vars.font.body,
});

export const badge = style({
  display: "inline-flex",
  alignItems: "center",
  gap: 5,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: "1px 7px",
  fontSize: 11,
  lineHeight: "16px",
  background: "transparent",
  color: vars.color.textMuted,
  font: "inherit",
  cursor: "pointer",
  fontVariantNumeric: "tabular-nums",
  selectors: {
    '&[data-health="bad"]': { borderColor: vars.color.danger, color: vars.color.danger },
    '&[data-health="warn"]': { borderColor: vars.color.warning, color: vars.color.warning },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}` },
  },
});

/** In a narrow widget a healthy badge is just its dot; a warning or a fault always says what it is. */
export const badgeText = style({});
globalStyle(`${badge}[data-health="ok"] > ${badgeText}`, {
  "@container": { "(max-width: 500px)": { display: "none" } },
});

export const dot = style({ width: 7, height: 7, borderRadius: "50%", flex: "0 0 auto" });

export const dotLevel = styleVariants({
  ok: { background: vars.color.success },
  warn: { background: vars.color.warning },
  bad: { background: vars.color.danger },
});

export const badgeWrap = style({ position: "relative" });

export const details = style({
  position: "absolute",
  right: 0,
  top: "calc(100% + 4px)",
  zIndex: 20,
  margin: 0,
  padding: "8px 10px",
  display: "grid",
  gridTemplateColumns: "auto auto",
  columnGap: 12,
  rowGap: 2,
  minWidth: 200,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  boxShadow: "0 6px 18px rgba(0,0,0,0.25)",
  fontSize: 11,
  whiteSpace: "nowrap",
});

export const detailsTerm = style({ color: vars.color.textMuted });
export const detailsValue = style({ margin: 0, textAlign: "right", fontVariantNumeric: "tabular-nums" });
export const detailsBad = style({ color: vars.color.danger, fontWeight: 600 });

export const empty = style({
  position: "absolute",
  inset: 0,
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  color: vars.color.textMuted,
  pointerEvents: "none",
});

export const listArea = style({
  position: "relative",
  flex: "1 1 auto",
  minHeight: 0,
  display: "flex",
  flexDirection: "column",
});

/** Column heads share the rows' grid templates; the gutter matches the list's scrollbar. */
export const headHalf = style({
  flex: "1 1 0",
  minWidth: 0,
  display: "grid",
  alignItems: "center",
  height: 18,
});

export const ladderHeads = style({ gridTemplateColumns: "repeat(5, 1fr)" });

// Numbers align right so digits line up; prices hug the middle of the book.
globalStyle(`${half} > *`, { textAlign: "right" });
globalStyle(`${halfVariants.sideAsk} > [data-part="price"]`, { textAlign: "left" });
globalStyle(`${halfVariants.stacked} > [data-part="price"]`, { textAlign: "left" });
globalStyle(`${halfVariants.ladderBid} > [data-part="price"], ${halfVariants.ladderAsk} > [data-part="price"]`, {
  textAlign: "center",
});
// The ladder has no count column.
globalStyle(`${halfVariants.ladderBid} > [data-part="count"], ${halfVariants.ladderAsk} > [data-part="count"]`, {
  display: "none",
});

// Narrow books (the grid lets a book be 5 of 24 columns wide) drop the least useful columns
// first: the count, then the running total. The root is the size container.
const NARROW = "(max-width: 460px)";
const TINY = "(max-width: 340px)";
const STACK_NARROW = "(max-width: 300px)";
const LADDER_NARROW = "(max-width: 380px)";

globalStyle(`${halfVariants.sideBid}, ${halfVariants.sideAsk}`, {
  "@container": {
    [NARROW]: { gridTemplateColumns: "1fr 1fr 1fr" },
    [TINY]: { gridTemplateColumns: "1fr 1fr" },
  },
});
globalStyle(halfVariants.sideBid, {
  "@container": {
    [NARROW]: { gridTemplateAreas: '"amount total price"' },
    [TINY]: { gridTemplateAreas: '"amount price"' },
  },
});
globalStyle(halfVariants.sideAsk, {
  "@container": {
    [NARROW]: { gridTemplateAreas: '"price total amount"' },
    [TINY]: { gridTemplateAreas: '"price amount"' },
  },
});
globalStyle(`${halfVariants.sideBid} > [data-part="count"], ${halfVariants.sideAsk} > [data-part="count"]`, {
  "@container": { [NARROW]: { display: "none" } },
});
globalStyle(`${halfVariants.sideBid} > [data-part="total"], ${halfVariants.sideAsk} > [data-part="total"]`, {
  "@container": { [TINY]: { display: "none" } },
});
globalStyle(halfVariants.stacked, {
  "@container": { [STACK_NARROW]: { gridTemplateColumns: "1fr 1fr 1fr", gridTemplateAreas: '"price amount total"' } },
});
globalStyle(`${halfVariants.stacked} > [data-part="count"]`, {
  "@container": { [STACK_NARROW]: { display: "none" } },
});
globalStyle(`${halfVariants.ladderBid}, ${halfVariants.ladderAsk}, ${ladderHeads}`, {
  "@container": { [LADDER_NARROW]: { gridTemplateColumns: "1fr 1fr 1fr" } },
});
globalStyle(halfVariants.ladderBid, {
  "@container": { [LADDER_NARROW]: { gridTemplateAreas: '"amount price ."' } },
});
globalStyle(halfVariants.ladderAsk, {
  "@container": { [LADDER_NARROW]: { gridTemplateAreas: '". price amount"' } },
});
globalStyle(
  `${halfVariants.ladderBid} > [data-part="total"], ${halfVariants.ladderAsk} > [data-part="total"], ${ladderHeads} > [data-part="total"]`,
  { "@container": { [LADDER_NARROW]: { display: "none" } } },
);
globalStyle(`${half} > *, ${headHalf} > *`, {
  "@container": { [NARROW]: { paddingLeft: 3, paddingRight: 3 } },
});
