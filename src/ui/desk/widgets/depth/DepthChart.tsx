import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useSnapshot } from "valtio";
import { i18n } from "../../../i18n";
import { log } from "../../../log";
import { appScheduler } from "../../../scheduler";
import { settings } from "../../../settings/store";
import { observeTheme, readPalette, type CanvasPalette } from "../../../theme/canvas-palette";
import type { WidgetDef, WidgetProps } from "../../widget";
import { bookPrecision, HealthStore, lengthForDepth, precisionDigits, resolveSource, useInjectedSource } from "../book";
import * as css from "./depth-chart.css";
import { DepthRenderer, type DepthColours, type HoverReadout } from "./depth-renderer";

/** Levels per side the chart draws (the default book length; shared with a book at P-same/100). */
const DEPTH = 100;

/**
 * The depth chart: cumulative bids and asks as stepped areas around the mid, on a canvas redrawn
 * at most once per animation frame, sized by a ResizeObserver and coloured from the theme's CSS
 * variables (re-read when the theme changes). Hovering shows the price and the total there.
 */
export function DepthChart({ symbol }: WidgetProps) {
  const { t } = useLingui();
  const s = useSnapshot(settings);
  const precision = Math.max(0, Math.min(4, Math.trunc(s.book_precision)));
  const throttleMs = s.book_throttle_ms;
  const injected = useInjectedSource();
  const rootRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const readoutRef = useRef<HTMLDivElement>(null);
  const rendererRef = useRef<DepthRenderer | null>(null);
  const [health] = useState(() => new HealthStore(() => appScheduler.now()));

  // The renderer, its size and its colours live as long as the canvas.
  useEffect(() => {
    const canvas = canvasRef.current;
    const root = rootRef.current;
    if (!canvas || !root) return;
    const timers = appScheduler.child();
    const renderer = new DepthRenderer(canvas, timers, (r) => writeReadout(readoutRef.current, r));
    rendererRef.current = renderer;
    const readColours = () => renderer.setColours(depthColours(readPalette(root)));
    readColours();
    const resize = new ResizeObserver(() => {
      renderer.resize(root.clientWidth, root.clientHeight, globalThis.devicePixelRatio || 1);
    });
    resize.observe(root);
    const stopTheme = observeTheme(readColours);
    const move = (e: PointerEvent) => renderer.hover(e.clientX - canvas.getBoundingClientRect().left);
    const leave = () => renderer.hover(null);
    canvas.addEventListener("pointermove", move);
    canvas.addEventListener("pointerleave", leave);
    return () => {
      canvas.removeEventListener("pointermove", move);
      canvas.removeEventListener("pointerleave", leave);
      stopTheme();
      resize.disconnect();
      renderer.dispose();
      timers.dispose();
      rendererRef.current = null;
    };
  }, []);

  useEffect(() => {
    rendererRef.current?.setDigits(precisionDigits(precision));
  }, [precision]);

  useEffect(() => {
    const controller = new AbortController();
    rendererRef.current?.setView(null);
    health.reset();
    const request = {
      symbol,
      prec: bookPrecision(precision),
      len: lengthForDepth(DEPTH, symbol),
      depth: DEPTH,
      throttleMs,
    } as const;
    resolveSource(injected)
      .book(
        request,
        (view) => {
          if (controller.signal.aborted) return;
          rendererRef.current?.setView(view);
          health.observe(view.status, view.health);
        },
        controller.signal,
      )
      .catch((err: unknown) => log.warn("depth subscription failed", symbol, err));
    return () => controller.abort();
  }, [injected, health, symbol, precision, throttleMs]);

  return (
    <div ref={rootRef} className={css.root} data-testid="depth-chart">
      <canvas
        ref={canvasRef}
        className={css.canvas}
        role="img"
        aria-label={t`Depth chart`}
        data-testid="depth-canvas"
      />
      <div ref={readoutRef} className={css.readout} data-hidden="true" data-testid="depth-readout" aria-live="off">
        <span className={css.readoutTerm}>{t`Price`}</span>
        <span className={css.readoutValue} data-part="price" />
        <span className={css.readoutTerm} data-part="side" />
        <span className={css.readoutValue} data-part="total" />
      </div>
      <EmptyNote health={health} />
    </div>
  );
}

function EmptyNote({ health }: { readonly health: HealthStore }) {
  const { t } = useLingui();
  const h = useSyncExternalStore(health.subscribe, health.getSnapshot);
  if (h.status !== "NONE") return null;
  return <div className={css.empty}>{t`Waiting for the book…`}</div>;
}

/** The depth chart's colours from the theme's shared canvas palette. */
function depthColours(p: CanvasPalette): DepthColours {
  return {
    up: p.up,
    upSoft: p.upSoft,
    down: p.down,
    downSoft: p.downSoft,
    text: p.muted,
    grid: p.border,
    font: p.font,
    line: p.text,
  };
}

const SIDES = { bid: msg`Bids`, ask: msg`Asks` };

function writeReadout(el: HTMLDivElement | null, r: HoverReadout | null): void {
  if (!el) return;
  if (!r) {
    el.dataset["hidden"] = "true";
    return;
  }
  const part = (name: string) => el.querySelector<HTMLElement>(`[data-part="${name}"]`);
  const price = part("price");
  const side = part("side");
  const total = part("total");
  if (price) price.textContent = r.price;
  if (side) side.textContent = r.side ? i18n._(SIDES[r.side]) : "";
  if (total) total.textContent = r.side ? r.total : "";
  el.dataset["hidden"] = "false";
  el.dataset["side"] = r.side ?? "";
  // Keep the box beside the cursor, flipping to the left half of the chart near the right edge.
  const parent = el.parentElement?.clientWidth ?? 0;
  const x = r.x > parent / 2 ? r.x - el.offsetWidth - 12 : r.x + 12;
  el.style.transform = `translateX(${Math.max(0, x)}px)`;
}

export const depthChartWidget: WidgetDef = {
  type: "depth",
  title: msg`Depth chart`,
  component: DepthChart,
  defaultSize: { w: 8, h: 10 },
  minSize: { w: 4, h: 5 },
};
