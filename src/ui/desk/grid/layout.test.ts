import { describe, expect, it } from "vitest";
import { addItem, compact, freshId, moveItem, parseLayout, removeItem, resizeItem, type GridItem } from "./layout";

const noOverlap = (items: readonly GridItem[]): boolean =>
  items.every((a, i) =>
    items.every((b, j) => i === j || !(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h)),
  );

const base: GridItem[] = [
  { key: "widget/book/a", x: 0, y: 0, w: 8, h: 10 },
  { key: "widget/chart/b", x: 8, y: 0, w: 16, h: 10 },
  { key: "widget/trades/c", x: 0, y: 10, w: 8, h: 6 },
];

describe("grid layout", () => {
  it("floats items up into free space", () => {
    const out = compact([{ key: "widget/book/a", x: 0, y: 7, w: 4, h: 2 }]);
    expect(out[0]).toMatchObject({ y: 0 });
  });

  it("moves an item and pushes the one it lands on out of the way", () => {
    const out = moveItem(base, "widget/trades/c", 8, 0);
    expect(out.find((i) => i.key === "widget/trades/c")).toMatchObject({ x: 8, y: 0 });
    expect(out.find((i) => i.key === "widget/chart/b")?.y).toBe(6);
    expect(noOverlap(out)).toBe(true);
  });

  it("floats a widget dropped into empty space up to the first free row", () => {
    const out = moveItem(base, "widget/book/a", 0, 30);
    // The tape under it moves up into its place and the book lands right below the tape.
    expect(out.find((i) => i.key === "widget/trades/c")).toMatchObject({ y: 0 });
    expect(out.find((i) => i.key === "widget/book/a")).toMatchObject({ y: 6 });
    expect(noOverlap(out)).toBe(true);
  });

  it("keeps moved items on the grid", () => {
    const out = moveItem(base, "widget/book/a", 30, -4);
    expect(out.find((i) => i.key === "widget/book/a")).toMatchObject({ x: 16, y: 0 });
    expect(noOverlap(out)).toBe(true);
  });

  it("resizes within the minimum size and the grid width", () => {
    const out = resizeItem(base, "widget/book/a", 1, 1, { w: 4, h: 6 });
    expect(out.find((i) => i.key === "widget/book/a")).toMatchObject({ w: 4, h: 6 });
    const wide = resizeItem(base, "widget/book/a", 40, 10);
    expect(wide.find((i) => i.key === "widget/book/a")?.w).toBe(24);
    expect(noOverlap(wide)).toBe(true);
  });

  it("adds below everything and removes with compaction", () => {
    const added = addItem(base, "depth", { defaultSize: { w: 6, h: 8 }, minSize: { w: 4, h: 4 } }, "zz");
    expect(added.at(-1)).toMatchObject({ key: "widget/depth/zz", x: 0, w: 6, h: 8 });
    expect(noOverlap(added)).toBe(true);
    const removed = removeItem(base, "widget/book/a");
    expect(removed.find((i) => i.key === "widget/trades/c")?.y).toBe(0);
  });

  it("makes ids that do not collide", () => {
    let n = 0;
    const seq = [0.5, 0.5, 0.25];
    const items = [{ key: `widget/book/${Math.floor(0.5 * 36 ** 6).toString(36)}`, x: 0, y: 0, w: 1, h: 1 }];
    const id = freshId(items, () => seq[n++] ?? 0.1);
    expect(id).toBe(Math.floor(0.25 * 36 ** 6).toString(36));
  });

  it("reads only version 1.0.0 layouts and drops unknown or broken items", () => {
    const known = new Set(["book", "chart"]);
    expect(parseLayout({ id: "x", name: "n", version: "0.9.0", items: [] }, known)).toBeNull();
    expect(parseLayout("nope", known)).toBeNull();
    const parsed = parseLayout(
      {
        id: "x",
        name: "Mine",
        version: "1.0.0",
        items: [
          { key: "widget/book/a", x: 0, y: 3, w: 8, h: 10, pair: "ETHUSD" },
          { key: "widget/book/a", x: 0, y: 0, w: 8, h: 10 },
          { key: "widget/alien/b", x: 0, y: 0, w: 8, h: 10 },
          { key: "widget/chart/c", x: "0", y: 0, w: 8, h: 10 },
          { key: "bad", x: 0, y: 0, w: 8, h: 10 },
          { key: "widget/chart/d", x: 8, y: 0, w: 16, h: 10, pair: "<script>" },
        ],
      },
      known,
    );
    expect(parsed?.items).toEqual([
      { key: "widget/book/a", x: 0, y: 0, w: 8, h: 10, pair: "ETHUSD" },
      { key: "widget/chart/d", x: 8, y: 0, w: 16, h: 10 },
    ]);
  });
});
