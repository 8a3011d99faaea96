/**
 * Grid layout algebra for the desk, framework-free so it tests in Node: a layout is a list of widget
 * placements on a 24-column grid of 24 px rows. Every edit (move, resize, add, remove) returns a new
 * list that is then compacted upwards and has no overlaps, so a stored layout can never be broken by
 * an edit. Widget keys are `widget/{type}/{id}` (docs/product-rules.md#keys-and-paths); layouts carry the grid config
 * version (1.0.0) and anything stored under another version is refused rather than half-read.
 */
import { GRID_CONFIG_VERSION, parseWidgetKey, widgetKey } from "../../../protocol";

export const GRID_COLUMNS = 24;
export const GRID_ROW_PX = 24;

export interface GridItem {
  /** `widget/{type}/{id}`. */
  readonly key: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /**
   * The market this widget is pinned to; absent: it follows the desk's. A pair (`BTCUSD`) on the
   * trading desk, a funding market symbol (`f/USD`; docs/product-rules.md#keys-and-paths) on the
   * funding desk.
   */
  readonly pair?: string;
}

export interface GridLayout {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly items: readonly GridItem[];
}

export interface SizeRule {
  readonly defaultSize: { readonly w: number; readonly h: number };
  readonly minSize: { readonly w: number; readonly h: number };
}

/**
 * A stored pin as kept: a pair, or a funding market symbol (`funding/{ccy}` is read as its short
 * form `f/{ccy}`); undefined for anything else.
 */
export function pinnedMarket(text: string): string | undefined {
  if (/^[A-Z0-9:]{6,20}$/.test(text)) return text;
  const funding = /^(?:f|funding)\/([A-Z0-9]{2,10})$/.exec(text);
  return funding ? `f/${funding[1] as string}` : undefined;
}

function overlaps(a: GridItem, b: GridItem): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function clampInt(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(v)));
}

/** Keeps an item on the grid and at least its minimum size. */
export function clampItem(item: GridItem, min: { readonly w: number; readonly h: number } = { w: 2, h: 2 }): GridItem {
  const w = clampInt(item.w, Math.min(min.w, GRID_COLUMNS), GRID_COLUMNS);
  const h = clampInt(item.h, min.h, 200);
  return { ...item, w, h, x: clampInt(item.x, 0, GRID_COLUMNS - w), y: clampInt(item.y, 0, 10_000) };
}

/**
 * Resolves overlaps and floats items up, react-grid-layout style: `pinned` (the item being moved or
 * resized) keeps its place, everything else is placed in reading order at its own x, as high as it
 * fits without overlapping what is already placed.
 */
export function compact(items: readonly GridItem[], pinned?: string): GridItem[] {
  const placed: GridItem[] = [];
  const first = items.find((i) => i.key === pinned);
  if (first) placed.push(first);
  const rest = items.filter((i) => i.key !== pinned).sort((a, b) => a.y - b.y || a.x - b.x || (a.key < b.key ? -1 : 1));
  for (const item of rest) {
    let y = 0;
    let candidate: GridItem = { ...item, y };
    for (;;) {
      const hit = placed.find((p) => overlaps(p, candidate));
      if (!hit) break;
      y = hit.y + hit.h;
      candidate = { ...item, y };
    }
    placed.push(candidate);
  }
  // Float the pinned item up too, once everything else has settled around it: no gap stays above
  // a widget dropped into empty space.
  if (first) {
    const others = placed.slice(1);
    let y = first.y;
    while (y > 0 && !others.some((o) => overlaps(o, { ...first, y: y - 1 }))) y--;
    placed[0] = { ...first, y };
  }
  return items.map((i) => placed.find((p) => p.key === i.key) ?? i);
}

export function moveItem(items: readonly GridItem[], key: string, x: number, y: number): GridItem[] {
  const next = items.map((i) => (i.key === key ? clampItem({ ...i, x, y }) : i));
  return compact(next, key);
}

export function resizeItem(
  items: readonly GridItem[],
  key: string,
  w: number,
  h: number,
  min?: { readonly w: number; readonly h: number },
): GridItem[] {
  const next = items.map((i) => (i.key === key ? clampItem({ ...i, w, h }, min) : i));
  return compact(next, key);
}

export function removeItem(items: readonly GridItem[], key: string): GridItem[] {
  return compact(items.filter((i) => i.key !== key));
}

/** The lowest free row: new widgets go below everything else. */
export function bottom(items: readonly GridItem[]): number {
  return items.reduce((max, i) => Math.max(max, i.y + i.h), 0);
}

/** Adds a widget of `type` with a fresh id, at the bottom left, at its default size. */
export function addItem(items: readonly GridItem[], type: string, rule: SizeRule, id: string): GridItem[] {
  const item = clampItem({ key: widgetKey(type, id), x: 0, y: bottom(items), ...rule.defaultSize }, rule.minSize);
  return compact([...items, item]);
}

/** A short, collision-free widget id. */
export function freshId(items: readonly GridItem[], random: () => number): string {
  for (;;) {
    const id = Math.floor(random() * 36 ** 6)
      .toString(36)
      .padStart(6, "0");
    if (!items.some((i) => parseWidgetKey(i.key)?.id === id)) return id;
  }
}

function isInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v);
}

/**
 * Reads a stored layout. Returns null for anything that is not a version-1.0.0 layout; drops items
 * of widget types the desk does not know (a layout saved by a newer build) and items with bad
 * geometry, and compacts the result.
 */
export function parseLayout(raw: unknown, knownTypes: ReadonlySet<string>): GridLayout | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (r["version"] !== GRID_CONFIG_VERSION) return null;
  if (typeof r["id"] !== "string" || typeof r["name"] !== "string" || !Array.isArray(r["items"])) return null;
  const items: GridItem[] = [];
  const seen = new Set<string>();
  for (const entry of r["items"] as unknown[]) {
    if (typeof entry !== "object" || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const key = e["key"];
    if (typeof key !== "string" || seen.has(key)) continue;
    const parsed = parseWidgetKey(key);
    if (!parsed || !knownTypes.has(parsed.type)) continue;
    if (!isInt(e["x"]) || !isInt(e["y"]) || !isInt(e["w"]) || !isInt(e["h"])) continue;
    const pair = typeof e["pair"] === "string" ? pinnedMarket(e["pair"]) : undefined;
    seen.add(key);
    items.push(clampItem({ key, x: e["x"], y: e["y"], w: e["w"], h: e["h"], ...(pair ? { pair } : {}) }));
  }
  return { id: r["id"], name: r["name"].slice(0, 60), version: GRID_CONFIG_VERSION, items: compact(items) };
}
