/**
 * The desk's grid: absolutely positioned cells on a 24-column grid of 24 px rows. Cells are placed
 * with transforms, so moving one is a compositor job; while a cell is dragged its transform is
 * written directly to the element on each pointer move and React renders only when the snapped
 * cell changes (the placeholder). Editing (drag to move, corner to resize, arrows / shift+arrows
 * from the keyboard, remove) is offered only when the desk allows it (grid enabled only where
 * trading is allowed and the path is in the trading-desk area: docs/product-rules.md#trading-allowed).
 */
import type { MessageDescriptor } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import {
  Component,
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type ErrorInfo,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from "react";
import { parseWidgetKey } from "../../../protocol";
import { log } from "../../log";
import * as css from "./grid.css";
import { GRID_COLUMNS, GRID_ROW_PX, type GridItem } from "./layout";

const GAP = 6;

export interface GridCellDef {
  readonly title: MessageDescriptor;
  readonly minSize: { readonly w: number; readonly h: number };
}

export interface DeskGridProps {
  readonly items: readonly GridItem[];
  readonly defs: ReadonlyMap<string, GridCellDef>;
  readonly editable: boolean;
  readonly deskPair: string;
  readonly renderWidget: (item: GridItem, pair: string) => ReactNode;
  readonly onMove: (key: string, x: number, y: number) => void;
  readonly onResize: (key: string, w: number, h: number) => void;
  readonly onRemove: (key: string) => void;
  /** Pins a widget to a pair (null: follow the desk's pair); offered while editing. */
  readonly onPin?: (key: string, pair: string | null) => void;
  /** The pairs a widget can be pinned to. */
  readonly pairs?: readonly string[];
}

interface Drag {
  readonly key: string;
  readonly kind: "move" | "resize";
  readonly startX: number;
  readonly startY: number;
  readonly item: GridItem;
  readonly el: HTMLElement;
}

interface Ghost {
  readonly key: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

function translate(x: number, y: number): string {
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS value, not text
  return `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
}

function box(colW: number, x: number, y: number, w: number, h: number): CSSProperties {
  return {
    transform: translate(x * colW, y * GRID_ROW_PX),
    width: Math.max(0, Math.round(w * colW) - GAP),
    height: h * GRID_ROW_PX - GAP,
  };
}

export function DeskGrid(props: DeskGridProps) {
  const { items, defs, editable, deskPair, renderWidget, onMove, onResize, onRemove, onPin, pairs = [] } = props;
  const { t, i18n } = useLingui();
  const root = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const drag = useRef<Drag | null>(null);
  const [ghost, setGhost] = useState<Ghost | null>(null);

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const colW = width / GRID_COLUMNS;
  const rows = items.reduce((m, i) => Math.max(m, i.y + i.h), 0);

  function snapped(d: Drag, dx: number, dy: number): Ghost {
    const i = d.item;
    if (d.kind === "move")
      return {
        key: d.key,
        x: Math.min(GRID_COLUMNS - i.w, Math.max(0, Math.round(i.x + dx / colW))),
        y: Math.max(0, Math.round(i.y + dy / GRID_ROW_PX)),
        w: i.w,
        h: i.h,
      };
    const min = defs.get(parseWidgetKey(d.key)?.type ?? "")?.minSize ?? { w: 2, h: 2 };
    return {
      key: d.key,
      x: i.x,
      y: i.y,
      w: Math.min(GRID_COLUMNS - i.x, Math.max(min.w, Math.round(i.w + dx / colW))),
      h: Math.max(min.h, Math.round(i.h + dy / GRID_ROW_PX)),
    };
  }

  function begin(e: PointerEvent<HTMLElement>, item: GridItem, kind: Drag["kind"]): void {
    if (!editable || e.button !== 0 || colW <= 0) return;
    if ((e.target as HTMLElement).closest("button") && kind === "move") return;
    const el = e.currentTarget.closest<HTMLElement>("[data-cell]");
    if (!el) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { key: item.key, kind, startX: e.clientX, startY: e.clientY, item, el };
    el.dataset["dragging"] = "true";
    setGhost({ key: item.key, x: item.x, y: item.y, w: item.w, h: item.h });
  }

  function follow(e: PointerEvent<HTMLElement>): void {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.startX;
    const dy = e.clientY - d.startY;
    const i = d.item;
    if (d.kind === "move") {
      d.el.style.transform = translate(i.x * colW + dx, i.y * GRID_ROW_PX + dy);
    } else {
      d.el.style.width = `${Math.max(40, Math.round(i.w * colW) - GAP + dx)}px`;
      d.el.style.height = `${Math.max(40, i.h * GRID_ROW_PX - GAP + dy)}px`;
    }
    const g = snapped(d, dx, dy);
    setGhost((prev) => (prev && prev.x === g.x && prev.y === g.y && prev.w === g.w && prev.h === g.h ? prev : g));
  }

  function end(e: PointerEvent<HTMLElement>): void {
    const d = drag.current;
    if (!d) return;
    drag.current = null;
    delete d.el.dataset["dragging"];
    const g = snapped(d, e.clientX - d.startX, e.clientY - d.startY);
    // Hand the element's geometry back to React's styles.
    d.el.style.removeProperty("transform");
    d.el.style.removeProperty("width");
    d.el.style.removeProperty("height");
    const b = box(colW, d.item.x, d.item.y, d.item.w, d.item.h);
    d.el.style.transform = String(b.transform);
    d.el.style.width = `${String(b.width)}px`;
    d.el.style.height = `${String(b.height)}px`;
    setGhost(null);
    if (d.kind === "move" && (g.x !== d.item.x || g.y !== d.item.y)) onMove(d.key, g.x, g.y);
    if (d.kind === "resize" && (g.w !== d.item.w || g.h !== d.item.h)) onResize(d.key, g.w, g.h);
  }

  function keys(e: KeyboardEvent<HTMLElement>, item: GridItem): void {
    if (!editable) return;
    const step: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const d = step[e.key];
    if (!d) return;
    e.preventDefault();
    if (e.shiftKey) onResize(item.key, item.w + d[0], item.h + d[1]);
    else onMove(item.key, item.x + d[0], item.y + d[1]);
  }

  return (
    <div
      ref={root}
      className={css.grid}
      style={{ height: rows * GRID_ROW_PX }}
      data-testid="desk-grid"
      data-editable={editable}
    >
      {ghost && <div className={css.placeholder} style={box(colW, ghost.x, ghost.y, ghost.w, ghost.h)} />}
      {width > 0 &&
        items.map((item) => {
          const parsed = parseWidgetKey(item.key);
          const def = parsed ? defs.get(parsed.type) : undefined;
          if (!parsed || !def) return null;
          const pair = item.pair ?? deskPair;
          const title = i18n._(def.title);
          return (
            <section
              key={item.key}
              data-cell
              data-widget={parsed.type}
              data-key={item.key}
              data-x={item.x}
              data-y={item.y}
              data-w={item.w}
              data-h={item.h}
              className={css.cell}
              style={box(colW, item.x, item.y, item.w, item.h)}
              aria-label={title}
            >
              <header
                className={css.header}
                data-editable={editable}
                tabIndex={editable ? 0 : undefined}
                aria-label={
                  editable ? t`${title}: drag or use the arrow keys to move, Shift+arrows to resize` : undefined
                }
                onPointerDown={(e) => begin(e, item, "move")}
                onPointerMove={follow}
                onPointerUp={end}
                onPointerCancel={end}
                onKeyDown={(e) => keys(e, item)}
              >
                <span className={css.title}>{title}</span>
                {editable && onPin ? (
                  <select
                    className={css.pinSelect}
                    value={item.pair ?? ""}
                    aria-label={t`Market of ${title}`}
                    data-testid="widget-pair"
                    onPointerDown={(e) => e.stopPropagation()}
                    onChange={(e) => onPin(item.key, e.target.value === "" ? null : e.target.value)}
                  >
                    <option value="">{t`Desk pair (${deskPair})`}</option>
                    {[...new Set([...(item.pair ? [item.pair] : []), ...pairs])].map((p) => (
                      <option key={p} value={p}>
                        {p}
                      </option>
                    ))}
                  </select>
                ) : (
                  item.pair && <span className={css.pairTag}>{item.pair}</span>
                )}
                {editable && (
                  <button
                    type="button"
                    className={css.iconButton}
                    aria-label={t`Remove ${title}`}
                    title={t`Remove ${title}`}
                    onClick={() => onRemove(item.key)}
                  >
                    ×
                  </button>
                )}
              </header>
              <div className={css.body}>
                <WidgetBoundary title={title}>{renderWidget(item, pair)}</WidgetBoundary>
              </div>
              {editable && (
                <div
                  className={css.resize}
                  role="presentation"
                  data-testid="resize-handle"
                  onPointerDown={(e) => begin(e, item, "resize")}
                  onPointerMove={follow}
                  onPointerUp={end}
                  onPointerCancel={end}
                />
              )}
            </section>
          );
        })}
    </div>
  );
}

interface BoundaryState {
  readonly failed: boolean;
}

/** One widget failing shows a message in its cell; the rest of the desk keeps running. */
class WidgetBoundary extends Component<{ readonly title: string; readonly children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    log.error("widget crashed", this.props.title, error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <WidgetCrashed onRetry={() => this.setState({ failed: false })} /> : this.props.children;
  }
}

function WidgetCrashed({ onRetry }: { readonly onRetry: () => void }) {
  const { t } = useLingui();
  return (
    <div className={css.crashed} role="alert">
      <p>{t`This panel stopped working. The rest of the desk is unaffected.`}</p>
      <button type="button" className={css.iconButton} onClick={onRetry}>
        {t`Try again`}
      </button>
    </div>
  );
}
