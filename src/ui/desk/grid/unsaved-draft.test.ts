import { describe, expect, it } from "vitest";
import type { GridLayout } from "./layout";
import { hasUnsavedDraft } from "./unsaved-draft";

const saved: GridLayout = {
  id: "a",
  name: "Mine",
  version: "1.0.0",
  items: [{ key: "widget/book/main", x: 0, y: 0, w: 6, h: 10 }],
};

describe("unsaved layout draft", () => {
  it("is unsaved only once the edited layout differs from its saved copy", () => {
    expect(hasUnsavedDraft({ mode: null, draft: null, layouts: [saved] })).toBe(false);
    expect(hasUnsavedDraft({ mode: "EDITING", draft: { ...saved, items: [...saved.items] }, layouts: [saved] })).toBe(
      false,
    );
    const moved = { ...saved, items: [{ ...saved.items[0]!, x: 6 }] };
    expect(hasUnsavedDraft({ mode: "EDITING", draft: moved, layouts: [saved] })).toBe(true);
    expect(hasUnsavedDraft({ mode: "EDITING", draft: { ...saved, name: "Renamed" }, layouts: [saved] })).toBe(true);
  });

  it("a layout being created is unsaved until it is saved", () => {
    expect(hasUnsavedDraft({ mode: "CREATING", draft: { ...saved, id: "b" }, layouts: [saved] })).toBe(true);
  });
});
