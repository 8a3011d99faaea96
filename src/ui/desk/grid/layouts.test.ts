import { beforeEach, describe, expect, it } from "vitest";
import { GRID_CONFIG_VERSION } from "../../../protocol";
import {
  addWidget,
  cancelEditing,
  configureLayouts,
  layoutsState,
  moveWidget,
  parseStored,
  pinWidget,
  renameLayout,
  resetLayout,
  saveEditing,
  shownLayout,
  startCreating,
  startEditing,
} from "./layouts";
import type { GridLayout } from "./layout";

const rules = new Map([
  ["book", { defaultSize: { w: 8, h: 10 }, minSize: { w: 4, h: 4 } }],
  ["chart", { defaultSize: { w: 16, h: 10 }, minSize: { w: 6, h: 6 } }],
]);
const standard = (): GridLayout => ({
  id: "default",
  name: "",
  version: GRID_CONFIG_VERSION,
  items: [
    { key: "widget/book/main", x: 0, y: 0, w: 8, h: 10 },
    { key: "widget/chart/main", x: 8, y: 0, w: 16, h: 10 },
  ],
});

beforeEach(() => {
  layoutsState.layouts = [];
  layoutsState.mode = null;
  layoutsState.draft = null;
  layoutsState.currentId = "default";
  configureLayouts(rules, standard);
});

describe("desk layouts", () => {
  it("edits a draft and only replaces the saved layout on save", () => {
    startEditing();
    expect(layoutsState.mode).toBe("EDITING");
    // Dropped under the chart: it settles right below it (vertical compaction).
    moveWidget("widget/book/main", 8, 14);
    expect(shownLayout(layoutsState)?.items.find((i) => i.key === "widget/book/main")?.y).toBe(10);
    expect(layoutsState.layouts[0]?.items.find((i) => i.key === "widget/book/main")?.y).toBe(0);
    saveEditing();
    expect(layoutsState.mode).toBeNull();
    expect(layoutsState.layouts[0]?.items.find((i) => i.key === "widget/book/main")?.y).toBe(10);
  });

  it("throws a cancelled draft away", () => {
    startEditing();
    addWidget("book");
    cancelEditing();
    expect(shownLayout(layoutsState)?.items).toHaveLength(2);
  });

  it("pins a widget to a pair and back to the desk's pair", () => {
    startEditing();
    pinWidget("widget/chart/main", "ETHUSD");
    expect(shownLayout(layoutsState)?.items.find((i) => i.key === "widget/chart/main")?.pair).toBe("ETHUSD");
    pinWidget("widget/chart/main", null);
    expect(shownLayout(layoutsState)?.items.find((i) => i.key === "widget/chart/main")).not.toHaveProperty("pair");
  });

  it("creates a new named layout that is current only in CREATING mode until saved", () => {
    startCreating("Scalping");
    expect(layoutsState.mode).toBe("CREATING");
    const draft = shownLayout(layoutsState);
    expect(draft?.name).toBe("Scalping");
    expect(layoutsState.currentId).toBe("default");
    saveEditing();
    expect(layoutsState.layouts.map((l) => l.name)).toEqual(["", "Scalping"]);
    expect(layoutsState.currentId).toBe(draft?.id);
    renameLayout(layoutsState.currentId, "  Scalp  ");
    expect(shownLayout(layoutsState)?.name).toBe("Scalp");
  });

  it("resets the current layout to the default arrangement", () => {
    startEditing();
    moveWidget("widget/chart/main", 0, 20);
    saveEditing();
    resetLayout();
    expect(shownLayout(layoutsState)?.items).toEqual(standard().items);
  });

  it("reads stored layouts of this version only, keeping a valid current id", () => {
    expect(parseStored({ version: "0.1.0", layouts: [standard()] })).toBeNull();
    const stored = parseStored({ version: GRID_CONFIG_VERSION, currentId: "gone", savedAt: 5, layouts: [standard()] });
    expect(stored).toMatchObject({ currentId: "default", savedAt: 5 });
  });
});
