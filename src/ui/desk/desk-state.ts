/**
 * Low-rate desk state shared by the widgets (valtio holds UI-shaped state only, never tick data):
 * the desk's current pair, and the order-form draft that the book, the tape and the keyboard
 * shortcuts fill. Widgets read it with `useSnapshot`; market data never passes through here.
 */
import { proxy } from "valtio";
import { DEFAULT_PAIR, tradingSymbol } from "../../protocol";

export type OrderSide = "buy" | "sell";

export interface DeskState {
  /** The desk's pair, e.g. `BTCUSD` or `TESTBTC:TESTUSD` (from the route). */
  pair: string;
}

export const deskState: DeskState = proxy({ pair: DEFAULT_PAIR });

/** `tBTCUSD` for the desk's pair. */
export function deskSymbol(state: Pick<DeskState, "pair"> = deskState): string {
  return tradingSymbol(state.pair);
}

/**
 * The order form's draft. Clicking a book level or a trade writes price (and amount / side) here;
 * `seq` increases on every external fill so the form can react (focus, flash) even when the same
 * price is clicked twice.
 */
export interface OrderDraft {
  price: string;
  amount: string;
  side: OrderSide;
  /** Bumped by every fillOrderForm / focusOrderForm call. */
  seq: number;
  /** What the last external write asked for: focus the amount field, the price field, or nothing. */
  focus: "price" | "amount" | null;
  /** Who wrote last: a click in the book or tape (an interactive-book order), or a keyboard shortcut. */
  origin: "book" | "keyboard";
}

export const orderDraft: OrderDraft = proxy({
  price: "",
  amount: "",
  side: "buy",
  seq: 0,
  focus: null,
  origin: "book",
});

/** Fills the order form from elsewhere on the desk (a book price, a trade, a shortcut). */
export function fillOrderForm(fill: {
  readonly price?: string;
  readonly amount?: string;
  readonly side?: OrderSide;
  readonly focus?: "price" | "amount";
  readonly origin?: "book" | "keyboard";
}): void {
  if (fill.price !== undefined) orderDraft.price = fill.price;
  if (fill.amount !== undefined) orderDraft.amount = fill.amount;
  if (fill.side !== undefined) orderDraft.side = fill.side;
  orderDraft.focus = fill.focus ?? null;
  orderDraft.origin = fill.origin ?? "book";
  orderDraft.seq += 1;
}
