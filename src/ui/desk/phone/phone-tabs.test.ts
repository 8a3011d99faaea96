import { beforeEach, describe, expect, it, vi } from "vitest";
import { PHONE_TAB_STORAGE_KEY, PHONE_TABS, tabForKey } from "./phone-tabs";

// IndexedDB as a map: what idb-keyval would keep.
const idb = vi.hoisted(() => ({ store: new Map<string, unknown>(), fail: false }));
vi.mock("idb-keyval", () => ({
  get: (key: string) => (idb.fail ? Promise.reject(new Error("blocked")) : Promise.resolve(idb.store.get(key))),
  set: (key: string, value: unknown) => {
    idb.store.set(key, value);
    return Promise.resolve();
  },
}));

/** A fresh copy of the module: its in-memory tab is per page load. */
const fresh = async () => {
  vi.resetModules();
  return import("./phone-tabs");
};

describe("tabForKey", () => {
  it("steps with the arrows, wrapping at both ends, and jumps with Home and End", () => {
    expect(tabForKey("chart", "ArrowRight")).toBe("book");
    expect(tabForKey("account", "ArrowRight")).toBe("chart");
    expect(tabForKey("chart", "ArrowLeft")).toBe("account");
    expect(tabForKey("form", "ArrowLeft")).toBe("trades");
    expect(tabForKey("trades", "Home")).toBe(PHONE_TABS[0]);
    expect(tabForKey("trades", "End")).toBe(PHONE_TABS[PHONE_TABS.length - 1]);
  });

  it("ignores every other key (the tab's own Enter and Space are clicks)", () => {
    for (const key of ["ArrowUp", "ArrowDown", "Enter", " ", "Tab", "a"]) expect(tabForKey("book", key)).toBeNull();
  });
});

describe("the stored tab", () => {
  beforeEach(() => {
    idb.store.clear();
    idb.fail = false;
  });

  it("starts on the chart, then comes back as chosen after a reload", async () => {
    const first = await fresh();
    expect(first.knownPhoneTab()).toBeUndefined();
    expect(await first.loadPhoneTab()).toBe("chart");
    first.savePhoneTab("form");
    expect(first.knownPhoneTab()).toBe("form");
    expect(idb.store.get(PHONE_TAB_STORAGE_KEY)).toBe("form");

    const reloaded = await fresh();
    expect(await reloaded.loadPhoneTab()).toBe("form");
    expect(reloaded.knownPhoneTab()).toBe("form");
  });

  it("falls back to the chart for an unknown stored value or unreadable storage", async () => {
    idb.store.set(PHONE_TAB_STORAGE_KEY, "depth");
    expect(await (await fresh()).loadPhoneTab()).toBe("chart");
    idb.fail = true;
    expect(await (await fresh()).loadPhoneTab()).toBe("chart");
  });

  it("keeps a tab chosen while the read was in flight", async () => {
    idb.store.set(PHONE_TAB_STORAGE_KEY, "book");
    const m = await fresh();
    const reading = m.loadPhoneTab();
    m.savePhoneTab("trades");
    expect(await reading).toBe("trades");
  });
});
