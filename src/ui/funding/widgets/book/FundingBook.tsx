/**
 * The funding book widget: a currency's offers (lenders) and bids (borrowers) by daily rate, each
 * level with its period or period range, count and amount, at precision P0–P4 (grouped by rate:
 * docs/product-rules.md#order-book) or R0 (single offers). As the price book: a virtualized list of
 * up to 100 levels a side, the rows in sight written from the worker's throttled views without a
 * React render (React renders on scroll and settings only), the same subscription, checksums and
 * feed badge. The worker checks the book's checksum on the levels as received.
 */
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import type { BookView } from "../../../../protocol";
import { FeedBadge, HealthStore, resolveSource, useInjectedSource, WaitingNote } from "../../../desk/widgets/book";
import * as tape from "../../../desk/widgets/trades/trades-tape.css";
import type { WidgetDef, WidgetProps } from "../../../desk/widget";
import { log } from "../../../log";
import { appScheduler } from "../../../scheduler";
import * as rateCss from "../funding.css";
import * as css from "./funding-book.css";
import { FUNDING_BOOK_DEPTH, FUNDING_PRECISIONS, rowText, slotOf, type FundingPrecision } from "./funding-book-rows";

/** Minimum ms between two book views: a funding book moves at a reader's pace. */
const FUNDING_BOOK_THROTTLE_MS = 250;
/** Rows listed beyond the viewport. */
const OVERSCAN = 4;

interface RowParts {
  readonly el: HTMLElement;
  readonly rate: HTMLElement;
  readonly period: HTMLElement;
  readonly count: HTMLElement;
  readonly amount: HTMLElement;
}

/** Writes the latest view into the rows in sight; a row attached later is written at once. */
class FundingBookPainter {
  readonly #rows = new Map<Element, RowParts>();
  #view: BookView | null = null;
  #raw = false;

  setView(view: BookView | null, raw: boolean): void {
    this.#view = view;
    this.#raw = raw;
    for (const r of this.#rows.values()) this.#paint(r);
  }

  readonly register = (el: HTMLElement | null): (() => void) | undefined => {
    if (!el) return undefined;
    const part = (name: string): HTMLElement => el.querySelector<HTMLElement>(`[data-part="${name}"]`) ?? el;
    const row: RowParts = {
      el,
      rate: part("rate"),
      period: part("period"),
      count: part("count"),
      amount: part("amount"),
    };
    this.#rows.set(el, row);
    this.#paint(row);
    return () => {
      this.#rows.delete(el);
    };
  };

  #paint(r: RowParts): void {
    const slot = slotOf(Number(r.el.dataset["index"]), FUNDING_BOOK_DEPTH);
    const text = slot && this.#view ? rowText(this.#view, slot, this.#raw) : null;
    if (!text) {
      if (r.el.dataset["empty"] === undefined) {
        r.el.dataset["empty"] = "";
        r.rate.textContent = r.period.textContent = r.count.textContent = r.amount.textContent = "";
      }
      return;
    }
    delete r.el.dataset["empty"];
    r.rate.textContent = text.rate;
    r.period.textContent = text.period;
    r.count.textContent = text.count;
    r.amount.textContent = text.amount;
    r.el.style.setProperty(css.DEPTH_PROPERTY, `${Math.round(text.depth * 100)}%`);
  }
}

export function FundingBook({ symbol }: WidgetProps) {
  const { t } = useLingui();
  const injected = useInjectedSource();
  const [precision, setPrecision] = useState<FundingPrecision>("P0");
  const [painter] = useState(() => new FundingBookPainter());
  const [health] = useState(() => new HealthStore(() => appScheduler.now()));
  const scrollRef = useRef<HTMLDivElement>(null);
  const precisionId = useId();
  const count = 2 * FUNDING_BOOK_DEPTH;

  // A new currency or precision starts blank rather than showing the old levels under new labels.
  useLayoutEffect(() => {
    painter.setView(null, false);
    health.reset();
  }, [painter, health, symbol, precision]);

  useEffect(() => {
    const controller = new AbortController();
    const request = {
      symbol,
      prec: precision,
      len: 100,
      depth: FUNDING_BOOK_DEPTH,
      throttleMs: FUNDING_BOOK_THROTTLE_MS,
    } as const;
    resolveSource(injected)
      .book(
        request,
        (view) => {
          if (controller.signal.aborted) return;
          painter.setView(view, precision === "R0");
          health.observe(view.status, view.health);
        },
        controller.signal,
      )
      .catch((err: unknown) => log.warn("funding book subscription failed", symbol, err));
    return () => controller.abort();
  }, [injected, painter, health, symbol, precision]);

  // The virtualizer's functions change with every scroll; nothing here memoizes them.
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => css.ROW_HEIGHT,
    overscan: OVERSCAN,
  });

  // The two sides meet in the middle of the list: that is where a reader looks first.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = Math.max(0, FUNDING_BOOK_DEPTH * css.ROW_HEIGHT - el.clientHeight / 2);
  }, [symbol, precision]);

  return (
    <div className={css.root} data-testid="funding-book">
      <div className={tape.tabbar}>
        <label className={css.label} htmlFor={precisionId}>
          {t`Precision`}
        </label>
        <select
          id={precisionId}
          className={css.select}
          value={precision}
          onChange={(e) => setPrecision(e.target.value as FundingPrecision)}
        >
          {FUNDING_PRECISIONS.map((p) => (
            <option key={p} value={p}>
              {p === "R0" ? t`R0 (offers)` : p}
            </option>
          ))}
        </select>
        <span className={tape.spacer} />
        <FeedBadge store={health} testId="funding-book-health" />
      </div>
      <div className={`${tape.heads} ${css.columns}`} aria-hidden="true">
        <span className={`${tape.head} ${tape.headLeft}`}>{t`Rate / day`}</span>
        <span className={tape.head}>{t`Days`}</span>
        <span className={tape.head}>{t`Count`}</span>
        <span className={tape.head}>{t`Amount`}</span>
      </div>
      <div
        ref={scrollRef}
        className={`${tape.panel} ${css.scroller}`}
        role="region"
        aria-label={t`Funding book: offers above, bids below`}
        tabIndex={0}
        data-testid="funding-book-rows"
      >
        <div className={css.spacerBox} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const slot = slotOf(v.index, FUNDING_BOOK_DEPTH);
            return (
              <div
                key={v.index}
                ref={painter.register}
                className={`${css.row} ${css.columns}`}
                data-index={v.index}
                data-side={slot?.side}
                data-mid={v.index === FUNDING_BOOK_DEPTH - 1 ? "" : undefined}
                data-empty=""
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <span className={`${tape.cell} ${rateCss.rate}`} data-part="rate" />
                <span className={tape.cell} data-part="period" />
                <span className={tape.cell} data-part="count" />
                <span className={tape.cell} data-part="amount" />
              </div>
            );
          })}
        </div>
      </div>
      <div className={css.note}>
        <WaitingNote health={health} />
      </div>
    </div>
  );
}

export const fundingBookWidget: WidgetDef = {
  type: "funding-book",
  title: msg`Funding book`,
  component: FundingBook,
  defaultSize: { w: 7, h: 23 },
  minSize: { w: 5, h: 8 },
};
