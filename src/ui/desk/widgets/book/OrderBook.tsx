import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
  type MouseEvent,
} from "react";
import { subscribe, useSnapshot } from "valtio";
import type { Order } from "../../../../protocol";
import { log } from "../../../log";
import { appScheduler } from "../../../scheduler";
import { settings } from "../../../settings/store";
import { accountStore } from "../../account-store";
import { fillOrderForm } from "../../desk-state";
import type { WidgetDef, WidgetProps } from "../../widget";
import {
  bookPrecision,
  formValue,
  lengthForDepth,
  levelPrice,
  precisionDigits,
  tierFor,
  type DepthTier,
} from "./book-format";
import {
  BOOK_LAYOUT,
  bookLayout,
  centerOffset,
  deepestVisible,
  listRows,
  stackedRow,
  type BookLayout,
} from "./book-layout";
import { BookPainter, type BookSide } from "./book-painter";
import { BookToolbar } from "./BookToolbar";
import { PaintQueue } from "./paint-queue";
import { HealthStore } from "./feed-health";
import { resolveSource, useInjectedSource } from "./market-source";
import * as css from "./order-book.css";

/** All books of the page paint through one queue, at most two a frame (see PaintQueue). */
const bookPaints = new PaintQueue(appScheduler, 2);

/** Rows rendered beyond the viewport on each side, so a fast wheel does not show blank rows. */
const OVERSCAN = 8;

/**
 * The order book widget: a virtualized list of up to 250 levels per side in one of three layouts
 * (see book-layout.ts), precision P0–P4, depth bars, the spread, own orders marked, click-to-fill
 * into the order form and a feed-health badge. Views from the worker are painted imperatively by
 * BookPainter; React renders only when the visible range, the layout or a setting changes.
 */
export function OrderBook({ symbol }: WidgetProps) {
  const s = useSnapshot(settings);
  const precision = Math.max(0, Math.min(4, Math.trunc(s.book_precision)));
  const layout = bookLayout(s.book_layout);
  const throttleMs = s.book_throttle_ms;
  const compact = s.book_compact_numbers;
  const digits = precisionDigits(precision);
  const injected = useInjectedSource();
  const [painter] = useState(() => new BookPainter(bookPaints));
  const [health] = useState(() => new HealthStore(() => appScheduler.now()));
  // Levels per side asked for and listed: null until the list has measured how many rows it shows.
  const [tier, setTier] = useState<DepthTier | null>(null);
  const centerRef = useRef<(() => void) | null>(null);

  useLayoutEffect(() => painter.configure(digits, compact), [painter, digits, compact]);
  useEffect(() => () => painter.dispose(), [painter]);

  // A new market or precision starts blank rather than showing the old levels under new labels.
  useLayoutEffect(() => {
    painter.setView(null);
    health.reset();
  }, [painter, health, symbol, precision]);

  useEffect(() => {
    if (tier === null) return;
    const controller = new AbortController();
    const request = {
      symbol,
      prec: bookPrecision(precision),
      len: lengthForDepth(tier, symbol),
      depth: tier,
      throttleMs,
    };
    resolveSource(injected)
      .book(
        request,
        (view) => {
          if (controller.signal.aborted) return;
          painter.setView(view);
          health.observe(view.status, view.health);
        },
        controller.signal,
      )
      .catch((err: unknown) => log.warn("book subscription failed", symbol, err));
    return () => controller.abort();
  }, [injected, painter, health, symbol, precision, tier, throttleMs]);

  useEffect(() => {
    const update = (): void => {
      const bids = new Set<number>();
      const asks = new Set<number>();
      for (const o of accountStore.view?.orders ?? []) {
        if (o.symbol !== symbol || !restsInBook(o) || o.price === null) continue;
        if (o.amount > 0) bids.add(levelPrice(o.price, digits, true));
        else if (o.amount < 0) asks.add(levelPrice(o.price, digits, false));
      }
      painter.setOwn(bids, asks);
    };
    update();
    return subscribe(accountStore, update);
  }, [painter, symbol, digits]);

  const reportDeepest = useCallback((deepest: number) => {
    const want = tierFor(deepest);
    setTier((t) => (t === null || want > t ? want : t));
  }, []);

  const center = useCallback(() => centerRef.current?.(), []);
  const registerRoot = useCallback((el: HTMLElement | null) => painter.registerRoot(el), [painter]);

  return (
    <div className={css.root} ref={registerRoot} data-testid="order-book" data-layout={layout}>
      <BookToolbar
        precision={precision}
        layout={layout}
        compact={compact}
        throttleMs={throttleMs}
        health={health}
        onCenter={layout === BOOK_LAYOUT.SIDE_BY_SIDE ? null : center}
      />
      {layout === BOOK_LAYOUT.SIDE_BY_SIDE ? <SpreadBar painter={painter} /> : null}
      <ColumnHeads layout={layout} />
      <BookList
        key={layout}
        layout={layout}
        perSide={tier ?? 25}
        painter={painter}
        health={health}
        onDeepest={reportDeepest}
        centerRef={centerRef}
      />
    </div>
  );
}

/** Only plain limit orders rest visibly in the book (stops wait, IOC/FOK never rest, hidden hide). */
function restsInBook(o: Order): boolean {
  return o.type.replace(/^EXCHANGE /, "") === "LIMIT" && !o.hidden;
}

function SpreadBar({ painter }: { readonly painter: BookPainter }) {
  const { t } = useLingui();
  const register = useCallback((el: HTMLElement | null) => painter.registerSpread(el), [painter]);
  return (
    <div className={css.spreadBar} ref={register} data-testid="book-spread">
      <span>{t`Spread`}</span>
      <span className={css.spreadValue} data-part="spread-abs" />
      <span className={css.spreadValue} data-part="spread-pct" />
    </div>
  );
}

const HEADS = {
  count: msg`Count`,
  amount: msg`Amount`,
  total: msg`Total`,
  price: msg`Price`,
};

function ColumnHeads({ layout }: { readonly layout: BookLayout }) {
  const { i18n, t } = useLingui();
  const head = (area: keyof typeof HEADS, align: string) => (
    <span className={`${css.headCell} ${align}`} style={{ gridArea: area }} data-part={area}>
      {i18n._(HEADS[area])}
    </span>
  );
  if (layout === BOOK_LAYOUT.SIDE_BY_SIDE)
    return (
      <div className={css.heads}>
        <div className={`${css.headHalf} ${css.halfVariants.sideBid}`}>
          {head("count", css.alignRight)}
          {head("amount", css.alignRight)}
          {head("total", css.alignRight)}
          {head("price", css.alignRight)}
        </div>
        <div className={`${css.headHalf} ${css.halfVariants.sideAsk}`}>
          {head("price", css.alignLeft)}
          {head("total", css.alignRight)}
          {head("amount", css.alignRight)}
          {head("count", css.alignRight)}
        </div>
      </div>
    );
  if (layout === BOOK_LAYOUT.STACKED)
    return (
      <div className={css.heads}>
        <div className={`${css.headHalf} ${css.halfVariants.stacked}`}>
          {head("price", css.alignLeft)}
          {head("amount", css.alignRight)}
          {head("total", css.alignRight)}
          {head("count", css.alignRight)}
        </div>
      </div>
    );
  return (
    <div className={css.heads}>
      <div className={`${css.headHalf} ${css.ladderHeads}`}>
        <span className={`${css.headCell} ${css.alignRight}`} data-part="total">
          {t`Total`}
        </span>
        <span className={`${css.headCell} ${css.alignRight}`}>{t`Bids`}</span>
        <span className={`${css.headCell} ${css.alignCenter}`}>{t`Price`}</span>
        <span className={`${css.headCell} ${css.alignRight}`}>{t`Asks`}</span>
        <span className={`${css.headCell} ${css.alignRight}`} data-part="total">
          {t`Total`}
        </span>
      </div>
    </div>
  );
}

interface BookListProps {
  readonly layout: BookLayout;
  readonly perSide: number;
  readonly painter: BookPainter;
  readonly health: HealthStore;
  readonly onDeepest: (deepest: number) => void;
  readonly centerRef: { current: (() => void) | null };
}

function BookList({ layout, perSide, painter, health, onDeepest, centerRef }: BookListProps) {
  const { t } = useLingui();
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = listRows(layout, perSide);
  const stacked = layout !== BOOK_LAYOUT.SIDE_BY_SIDE;
  // The virtualizer's functions change with every scroll; nothing here memoizes them.
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => css.ROW_HEIGHT,
    overscan: OVERSCAN,
    onChange: (v) => {
      const range = v.range;
      if (range) onDeepest(deepestVisible(layout, perSide, range.startIndex, range.endIndex));
    },
  });

  // Stacked lists grow at the top when deeper levels arrive: keep the rows under the eye still.
  const shown = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const before = shown.current;
    shown.current = perSide;
    if (!stacked) return;
    if (before === null) el.scrollTop = centerOffset(perSide, css.ROW_HEIGHT, el.clientHeight);
    else if (perSide !== before) el.scrollTop += (perSide - before) * css.ROW_HEIGHT;
  }, [perSide, stacked]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el) onDeepest(Math.ceil(el.clientHeight / css.ROW_HEIGHT) / (stacked ? 2 : 1));
  }, [onDeepest, stacked]);

  useLayoutEffect(() => {
    centerRef.current = stacked
      ? () => {
          const el = scrollRef.current;
          if (el) el.scrollTo({ top: centerOffset(perSide, css.ROW_HEIGHT, el.clientHeight) });
        }
      : null;
  }, [centerRef, perSide, stacked]);

  // Every render mounts or moves rows: paint them from the current view before the browser paints.
  useLayoutEffect(() => painter.paint());

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const target = e.target as Element;
    const act = target.closest("[data-act]")?.getAttribute("data-act");
    if (act !== "price" && act !== "amount") return;
    const level = painter.levelOf(target);
    if (!level) return;
    // Taking liquidity: an ask is bought, a bid is sold.
    const side = level.side === "ask" ? "buy" : "sell";
    if (act === "price") fillOrderForm({ price: formValue(level.price), side, focus: "amount" });
    else fillOrderForm({ price: formValue(level.price), amount: formValue(level.cumulative), side, focus: "amount" });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const active = document.activeElement;
    const rowEl = active?.closest<HTMLElement>("[data-index]");
    const act = active?.getAttribute("data-act");
    if (!rowEl || !act) return;
    e.preventDefault();
    const next = Number(rowEl.dataset["index"]) + (e.key === "ArrowDown" ? 1 : -1);
    if (next < 0 || next >= count) return;
    const side = active?.closest<HTMLElement>("[data-side]")?.dataset["side"];
    virtualizer.scrollToIndex(next);
    // The target row may mount only after the scroll re-renders the list.
    appScheduler.frame(() => focusCell(scrollRef.current, next, side, act));
  };

  const registerSpread = useCallback((el: HTMLElement | null) => painter.registerSpread(el), [painter]);
  const items = virtualizer.getVirtualItems();
  return (
    <div className={css.listArea}>
      <div
        ref={scrollRef}
        className={css.scroller}
        onClick={onClick}
        onKeyDown={onKeyDown}
        onPointerOver={(e) => painter.hover(e.target as Element)}
        onPointerLeave={() => painter.hover(null)}
        data-testid="book-scroller"
        aria-label={t`Order book`}
        role="region"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((item) => {
            const style = { transform: `translateY(${item.start}px)` };
            if (!stacked)
              return (
                <div key={item.index} className={css.row} style={style} data-index={item.index}>
                  <BookHalf side="bid" level={item.index} variant="sideBid" bar="bidRight" painter={painter} />
                  <BookHalf side="ask" level={item.index} variant="sideAsk" bar="askLeft" painter={painter} />
                </div>
              );
            const row = stackedRow(item.index, perSide);
            if (row.kind === "spread")
              return (
                <div
                  key="spread"
                  className={css.spreadRow}
                  style={style}
                  data-index={item.index}
                  ref={registerSpread}
                  data-testid="book-spread"
                >
                  <span>{t`Spread`}</span>
                  <span className={css.spreadValue} data-part="spread-abs" />
                  <span className={css.spreadValue} data-part="spread-pct" />
                </div>
              );
            const ladder = layout === BOOK_LAYOUT.LADDER;
            return (
              <div key={`${row.kind}${row.level}`} className={css.row} style={style} data-index={item.index}>
                <BookHalf
                  side={row.kind}
                  level={row.level}
                  variant={ladder ? (row.kind === "bid" ? "ladderBid" : "ladderAsk") : "stacked"}
                  bar={
                    ladder
                      ? row.kind === "bid"
                        ? "ladderBid"
                        : "ladderAsk"
                      : row.kind === "bid"
                        ? "bidRight"
                        : "askRight"
                  }
                  painter={painter}
                />
              </div>
            );
          })}
        </div>
      </div>
      <WaitingNote health={health} />
    </div>
  );
}

function focusCell(root: HTMLElement | null, index: number, side: string | undefined, act: string): void {
  const row = root?.querySelector(`[data-index="${index}"]`);
  if (!row) return;
  const cell =
    row.querySelector<HTMLElement>(`[data-side="${side}"] [data-act="${act}"]`) ??
    row.querySelector<HTMLElement>(`[data-act="${act}"]`);
  cell?.focus();
}

interface BookHalfProps {
  readonly side: BookSide;
  readonly level: number;
  readonly variant: keyof typeof css.halfVariants;
  readonly bar: keyof typeof css.barVariants;
  readonly painter: BookPainter;
}

/** One side of a row; its cells are written by BookPainter, never by React. */
function BookHalf({ side, level, variant, bar, painter }: BookHalfProps) {
  const priceColour = side === "bid" ? css.priceBid : css.priceAsk;
  const register = useCallback((el: HTMLElement | null) => painter.registerHalf(el), [painter]);
  return (
    <div ref={register} className={`${css.half} ${css.halfVariants[variant]}`} data-side={side} data-level={level}>
      <div data-part="bar" data-span={css.BAR_SPAN[bar]} className={`${css.bar} ${css.barVariants[bar]}`} />
      <span data-part="count" className={css.cell.count} />
      <button type="button" data-part="amount" data-act="amount" className={`${css.cell.amount} ${css.cellButton}`} />
      <span data-part="total" className={css.cell.total} />
      <button
        type="button"
        data-part="price"
        data-act="price"
        className={`${css.cell.price} ${css.cellButton} ${priceColour}`}
      />
    </div>
  );
}

function WaitingNote({ health }: { readonly health: HealthStore }) {
  const { t } = useLingui();
  const h = useSyncExternalStore(health.subscribe, health.getSnapshot);
  if (h.status !== "NONE") return null;
  return <div className={css.empty}>{t`Waiting for the book…`}</div>;
}

export const orderBookWidget: WidgetDef = {
  type: "book",
  title: msg`Order book`,
  component: OrderBook,
  defaultSize: { w: 8, h: 18 },
  minSize: { w: 5, h: 8 },
};
