// The part of @lab49/react-order-book's types this page uses, declared here because the package
// lives in bench/node_modules, which `npm ci` at the root does not install: `tsc -b` (tests project,
// bench/**) must pass on a fresh clone. Copied from the package's dist/OrderBook.d.ts (0.1.4).
declare module "@lab49/react-order-book" {
  import type { FC } from "react";

  export enum Layout {
    Row = "row",
    Column = "column",
  }

  export interface Props {
    applyBackgroundColor?: boolean;
    askColor?: number[];
    bidColor?: number[];
    book: { asks: string[][]; bids: string[][] };
    fullOpacity?: boolean;
    interpolateColor?: (start: number[], end: number[], factor: number) => number[];
    layout?: Layout;
    listLength?: number;
    showHeaders?: boolean;
    showSpread?: boolean;
    spread?: string;
    stylePrefix?: string;
  }

  export const OrderBook: FC<Props>;
}
