import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from "react";
import { subscribe, useSnapshot } from "valtio";
import type { Order } from "../../../../protocol";
import { log } from "../../../log";
import { appScheduler } from "../../../scheduler";
import { settings } from "../../../settings/store";
import { observeTheme, readPalette } from "../../../theme/canvas-palette";
import { accountStore } from "../../account-store";
import { fillOrderForm } from "../../desk-state";
import type { WidgetDef, WidgetProps } from "../../widget";
import { bookGeometry, headCells, type BookGeometry, type BookPart } from "./book-columns";
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
  moveCursor,
  rowIndexOf,
  type BookCursor,
  type BookLayout,
} from "./book-layout";
import { BookPainter, LEVEL_STEP, ROW_HEIGHT, type BookCell, type PaintedLevel } from "./book-painter";
import { BookToolbar } from "./BookToolbar";
import { PaintQueue } from "./paint-queue";
import { HealthStore } from "./feed-health";
import { resolveSource, useInjectedSource } from "./market-source";
import * as css from "./order-book.css";

/** All books of the page paint through one queue, up to 6 ms of paints a frame (see PaintQueue). */
const bookPaints = new PaintQueue(appScheduler, 8, 6);

/**
 * Rows the virtualizer lists beyond the viewport. The canvas is redrawn in the scroll event itself,
 * so no row can show blank during a fast wheel; one row covers a partly scrolled edge.
 */
const OVERSCAN = 1;

interface ListSize {
  /** The list's width without its scrollbar, and its height. */
  readonly width: number;
  readonly height: number;
  /** The widget's width: narrow books drop columns (book-columns.ts). */
  readonly container: number;
}

/**
 * The order book widget: a virtualized list of up to 250 levels per side in one of three layouts
 * (see book-layout.ts), drawn on a canvas (book-painter.ts), precision P0–P4, depth bars, the
 * spread, own orders marked, click-to-fill into the order form, a keyboard cursor and a feed-health
 * badge. React renders only when the visible range, the size, the layout or a setting changes.
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
  // Levels the deeper side has (in steps), once a view has come: the list is no longer than the book.
  const [present, setPresent] = useState<number | null>(null);
  const listed = present === null ? (tier ?? 25) : Math.min(tier ?? 25, Math.max(LEVEL_STEP, present));
  const [size, setSize] = useState<ListSize>({ width: 0, height: 0, container: 0 });
  const geometry = useMemo(() => bookGeometry(layout, size.width, size.container), [layout, size]);
  const centerRef = useRef<(() => void) | null>(null);
  const rootRef = useRef<HTMLDivElement | null>(null);

  useLayoutEffect(() => painter.configure(digits, compact), [painter, digits, compact]);
  useLayoutEffect(() => painter.listenLevels(setPresent), [painter]);
  useEffect(() => () => painter.dispose(), [painter]);

  // Canvas colours follow the theme without a React render.
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root) return undefined;
    painter.setPalette(readPalette(root));
    return observeTheme(() => painter.setPalette(readPalette(root)));
  }, [painter]);

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
  const registerRoot = useCallback(
    (el: HTMLDivElement | null) => {
      rootRef.current = el;
      painter.registerRoot(el);
    },
    [painter],
  );

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
      <ColumnHeads geometry={geometry} />
      <BookList
        key={layout}
        layout={layout}
        perSide={listed}
        painter={painter}
        health={health}
        geometry={geometry}
        size={size}
        onSize={setSize}
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

/** The heads over the drawn columns, placed by the same geometry. */
function ColumnHeads({ geometry }: { readonly geometry: BookGeometry }) {
  const { i18n, t } = useLingui();
  const ladder = geometry.layout === BOOK_LAYOUT.LADDER;
  const label = (part: BookPart, side: "bid" | "ask"): string => {
    if (ladder && part === "amount") return side === "bid" ? t`Bids` : t`Asks`;
    return i18n._(HEADS[part]);
  };
  return (
    <div className={css.heads}>
      {headCells(geometry).map((c) => (
        <span
          key={`${c.side}-${c.part}`}
          className={css.headCell}
          data-part={c.part}
          style={{
            left: c.x,
            width: c.width,
            textAlign: c.align,
            paddingLeft: geometry.padding,
            paddingRight: geometry.padding,
          }}
        >
          {label(c.part, c.side)}
        </span>
      ))}
    </div>
  );
}

interface BookListProps {
  readonly layout: BookLayout;
  readonly perSide: number;
  readonly painter: BookPainter;
  readonly health: HealthStore;
  /** The cells' geometry for the list's width (shared with the column heads). */
  readonly geometry: BookGeometry;
  readonly size: ListSize;
  readonly onSize: (size: ListSize) => void;
  readonly onDeepest: (deepest: number) => void;
  readonly centerRef: { current: (() => void) | null };
}

function BookList({ layout, perSide, painter, health, geometry, size, onSize, onDeepest, centerRef }: BookListProps) {
  const { t } = useLingui();
  const scrollRef = useRef<HTMLDivElement>(null);
  const keyboard = useRef(false);
  // Where the pointer is (viewport coordinates), so a wheel scroll re-marks the levels it sweeps.
  const pointer = useRef<{ x: number; y: number } | null>(null);
  // The screen's pixel density: a canvas moved to another screen is resized to stay sharp.
  const [dpr, setDpr] = useState(() => window.devicePixelRatio || 1);
  const cursor = useRef<BookCursor>({ side: "bid", level: 0, part: "price" });
  const [said, setSaid] = useState("");
  const count = listRows(layout, perSide);
  const stacked = layout !== BOOK_LAYOUT.SIDE_BY_SIDE;
  // The virtualizer's functions change with every scroll; nothing here memoizes them.
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    onChange: (v) => {
      const range = v.range;
      if (range) onDeepest(deepestVisible(layout, perSide, range.startIndex, range.endIndex));
      // Scrolling redraws now, in the scroll event, not after React has rendered; the rows under a
      // still pointer have changed, so has what it sweeps.
      painter.setWindow(v.getVirtualItems(), v.scrollOffset ?? 0);
      const at = pointer.current;
      if (at) {
        const { x, y } = local({ clientX: at.x, clientY: at.y });
        painter.hover(painter.cellAt(x, y));
      }
      painter.paint();
    },
  });

  useLayoutEffect(() => {
    const el = scrollRef.current;
    const area = el?.parentElement;
    if (!el || !area) return undefined;
    const measure = (): void => {
      const next = { width: el.clientWidth, height: el.clientHeight, container: area.clientWidth };
      if (next.width !== size.width || next.height !== size.height || next.container !== size.container) onSize(next);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [onSize, size]);

  // Stacked lists grow at the top when deeper levels arrive: keep the rows under the eye still.
  const shown = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const before = shown.current;
    shown.current = perSide;
    if (!stacked) return;
    if (before === null) el.scrollTop = centerOffset(perSide, ROW_HEIGHT, el.clientHeight);
    else if (perSide !== before) el.scrollTop += (perSide - before) * ROW_HEIGHT;
  }, [perSide, stacked]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && el.clientHeight > 0) onDeepest(Math.ceil(el.clientHeight / ROW_HEIGHT) / (stacked ? 2 : 1));
  }, [onDeepest, stacked, size.height]);

  useLayoutEffect(() => {
    centerRef.current = stacked
      ? () => {
          const el = scrollRef.current;
          if (el) el.scrollTo({ top: centerOffset(perSide, ROW_HEIGHT, el.clientHeight) });
        }
      : null;
  }, [centerRef, perSide, stacked]);

  // Every render may change the rows in sight, the row model or the size: draw before the browser paints.
  useLayoutEffect(() => {
    painter.setRows(layout, perSide);
    painter.setSize(geometry, size.height, dpr);
    painter.setWindow(virtualizer.getVirtualItems(), virtualizer.scrollOffset ?? 0);
    painter.setSpreadLabel(t`Spread`);
    painter.paint();
  });

  useEffect(() => {
    const query = window.matchMedia(`(resolution: ${dpr}dppx)`);
    const changed = (): void => setDpr(window.devicePixelRatio || 1);
    query.addEventListener("change", changed);
    return () => query.removeEventListener("change", changed);
  }, [dpr]);

  function local(e: { clientX: number; clientY: number }): { x: number; y: number } {
    const box = scrollRef.current?.getBoundingClientRect();
    return { x: e.clientX - (box?.left ?? 0), y: e.clientY - (box?.top ?? 0) };
  }

  const fill = (level: PaintedLevel, withAmount: boolean): void => {
    // Taking liquidity: an ask is bought, a bid is sold.
    const side = level.side === "ask" ? "buy" : "sell";
    if (withAmount)
      fillOrderForm({ price: formValue(level.price), amount: formValue(level.cumulative), side, focus: "amount" });
    else fillOrderForm({ price: formValue(level.price), side, focus: "amount" });
  };

  // A click on a price (or a count) takes the price; on an amount or a total, also the cumulative
  // amount; between columns (the ladder's other half), nothing.
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const { x, y } = local(e);
    const cell = painter.cellAt(x, y);
    const level = cell ? painter.levelOf(cell.side, cell.level) : null;
    if (!cell || cell.part === null || !level) return;
    fill(level, cell.part === "amount" || cell.part === "total");
  };

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    pointer.current = { x: e.clientX, y: e.clientY };
    const { x, y } = local(e);
    const cell = painter.cellAt(x, y);
    painter.hover(cell);
    const el = scrollRef.current;
    const over = cell ? "level" : "none";
    if (el && el.dataset["over"] !== over) el.dataset["over"] = over;
  };

  const describe = (cell: BookCell): string => {
    const level = painter.levelOf(cell.side, cell.level);
    if (!level) return "";
    const n = level.level + 1;
    const price = painter.labels.price(level.price);
    const amount = painter.labels.amount(level.amount);
    const total = painter.labels.amount(level.cumulative);
    return cell.side === "bid"
      ? t`Bid ${n}: price ${price}, amount ${amount}, total ${total}`
      : t`Ask ${n}: price ${price}, amount ${amount}, total ${total}`;
  };

  const showCursor = (c: BookCursor): void => {
    cursor.current = c;
    painter.setCursor(c, keyboard.current);
    virtualizer.scrollToIndex(rowIndexOf(layout, perSide, c.side, c.level));
    setSaid(describe(c));
  };

  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    if (e.target === e.currentTarget) painter.setCursor(cursor.current, keyboard.current);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    keyboard.current = true;
    const c = cursor.current;
    if (e.key === "Enter" || e.key === " ") {
      const level = painter.levelOf(c.side, c.level);
      if (!level) return;
      e.preventDefault();
      fill(level, c.part === "amount");
      return;
    }
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1);
    const moved = moveCursor(layout, perSide, c, e.key, page);
    if (!moved) return;
    e.preventDefault();
    // The cursor stays on levels present: a shallow book lists a few blank rows past its last.
    const present = painter.levelsOn(moved.side);
    if (present === 0) return;
    showCursor({ ...moved, level: Math.min(moved.level, present - 1) });
  };

  return (
    <div className={css.listArea}>
      <canvas ref={painter.attachCanvas} className={css.canvas} aria-hidden="true" data-testid="book-canvas" />
      <div
        ref={scrollRef}
        className={css.scroller}
        onClick={onClick}
        onPointerMove={onPointerMove}
        onPointerDown={() => {
          keyboard.current = false;
        }}
        onPointerLeave={() => {
          pointer.current = null;
          painter.hover(null);
        }}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onBlur={() => painter.setCursor(cursor.current, false)}
        data-testid="book-scroller"
        aria-label={t`Order book`}
        aria-description={t`Arrow keys move between levels and cells; Enter fills the order form.`}
        role="region"
        // The list is one focus stop; the arrow keys move a cursor drawn on the canvas.
        tabIndex={0}
      >
        <div className={css.listSpacer} style={{ height: virtualizer.getTotalSize() }} />
      </div>
      <div className={css.srOnly} aria-live="polite" data-testid="book-cursor-said">
        {said}
      </div>
      <WaitingNote health={health} />
    </div>
  );
}

/** "Waiting for the book…" over a list until its first view (the funding book shows it too). */
export function WaitingNote({ health }: { readonly health: HealthStore }) {
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
