import { describe, expect, it } from "vitest";
import { SHORTCUTS, shortcutFor } from "./shortcuts";

const key = (k: string, extra: Partial<Parameters<typeof shortcutFor>[0]> = {}) =>
  shortcutFor({ key: k, ctrlKey: false, metaKey: false, altKey: false, target: null, ...extra });

describe("desk shortcuts", () => {
  it("maps keys to actions", () => {
    expect(key("b")).toBe("buy");
    expect(key("S")).toBe("sell");
    expect(key("f")).toBe("focus-order-form");
    expect(key("X")).toBe("cancel-all-market");
    expect(key("x")).toBeNull(); // cancel-all needs Shift
    expect(key("/")).toBe("switch-pair");
    expect(key("?")).toBe("help");
  });

  it("leaves browser shortcuts and typing alone", () => {
    expect(key("b", { ctrlKey: true })).toBeNull();
    expect(key("s", { metaKey: true })).toBeNull();
    expect(key("b", { target: { tagName: "INPUT" } as unknown as EventTarget })).toBeNull();
    expect(key("b", { target: { tagName: "DIV", isContentEditable: true } as unknown as EventTarget })).toBeNull();
    expect(key("b", { target: { tagName: "DIV", isContentEditable: false } as unknown as EventTarget })).toBe("buy");
  });

  it("stays out of dialogs: an order confirmation's S must not flip the order behind it", () => {
    const button = (insideDialog: boolean) =>
      ({
        tagName: "BUTTON",
        closest: (sel: string) => (sel.includes('[role="dialog"]') && insideDialog ? {} : null),
      }) as unknown as EventTarget;
    expect(key("s", { target: button(true) })).toBeNull();
    expect(key("?", { target: button(true) })).toBeNull();
    expect(key("s", { target: button(false) })).toBe("sell");
    // A modal showing takes every key, wherever the focus is.
    expect(shortcutFor({ key: "X", ctrlKey: false, metaKey: false, altKey: false, target: null }, true)).toBeNull();
  });

  it("lists every action once, with keys no other action uses", () => {
    const keys = SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(SHORTCUTS.map((s) => s.action)).size).toBe(SHORTCUTS.length);
  });
});
