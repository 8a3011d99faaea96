import { Layout, OrderBook } from "@lab49/react-order-book";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { BookViewRequest } from "../../src/protocol";
import { log } from "../../src/ui/log";
import type { MarketBridge } from "../../src/ui/market/bridge";
import { peerBook, type PeerBook } from "./lab49-view";
import * as css from "./peer-book.css";

/** The whole stress book, throttled as the desk's books are (default setting, 100 ms). */
const REQUEST: BookViewRequest = { symbol: "tSTRESS", prec: "P0", len: 250, depth: 250, throttleMs: 100 };

/**
 * @lab49/react-order-book fed as an app using it would: each worker view becomes the component's
 * props through React state. After the commit that shows a view, the root carries the view's times
 * (`data-painted-update-at`, `data-painted-published-at`) as the desk's books do, so bench:ui
 * measures both the same way.
 */
export function Lab49Book({ source, rows }: { readonly source: Pick<MarketBridge, "book">; readonly rows: number }) {
  const [book, setBook] = useState<PeerBook | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    source
      .book(
        REQUEST,
        (view) => {
          if (!controller.signal.aborted) setBook(peerBook(view));
        },
        controller.signal,
      )
      .catch((err: unknown) => log.error("peer book subscription failed", err));
    return () => controller.abort();
  }, [source]);

  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root || !book) return;
    root.dataset["paintedUpdateAt"] = String(book.updateAt);
    root.dataset["paintedPublishedAt"] = String(book.publishedAt);
  }, [book]);

  return (
    <div ref={rootRef} className={css.lab49} data-testid="order-book" data-impl="lab49">
      {book && book.asks.length > 0 && book.bids.length > 0 ? (
        // React 19 ignores defaultProps on function components, which this library relies on
        // (listLength 10, stylePrefix, showSpread…): every prop is passed explicitly.
        <OrderBook
          book={book}
          layout={Layout.Row}
          listLength={rows}
          showHeaders
          showSpread
          applyBackgroundColor={false}
          fullOpacity={false}
          stylePrefix="rob_OrderBook"
          askColor={[235, 64, 52]}
          bidColor={[0, 216, 101]}
        />
      ) : null}
    </div>
  );
}
