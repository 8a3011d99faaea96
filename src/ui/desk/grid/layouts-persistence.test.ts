import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GRID_CONFIG_VERSION } from "../../../protocol";
import { auth } from "../../auth";
import { loadConfig } from "../../config";
import { jsonBody, requestUrl } from "../../test-support/fetch";
import type { GridLayout } from "./layout";
import {
  configureLayouts,
  layoutsState,
  LAYOUTS_SETTING_KEY,
  LAYOUTS_STORAGE_KEY,
  loadAndPersistLayouts,
  moveWidget,
  renameLayout,
  SERVER_SAVE_DEBOUNCE_MS,
  selectLayout,
  startEditing,
  cancelEditing,
  type StoredLayouts,
} from "./layouts";

// IndexedDB as a map: what idb-keyval would keep, and every write, in order.
const idb = vi.hoisted(() => ({ store: new Map<string, unknown>(), writes: [] as [string, unknown][] }));
vi.mock("idb-keyval", () => ({
  get: (key: string) => Promise.resolve(idb.store.get(key)),
  set: (key: string, value: unknown) => {
    idb.writes.push([key, structuredClone(value)]);
    idb.store.set(key, structuredClone(value));
    return Promise.resolve();
  },
}));

/** The exchange's settings store behind `/v2/auth/r/settings` and `/v2/auth/w/settings/set`. */
interface FakeExchange {
  copy: unknown;
  reads: number;
  saves: unknown[];
  tokens: string[];
}
let exchange: FakeExchange;

const rules = new Map([
  ["book", { defaultSize: { w: 8, h: 10 }, minSize: { w: 4, h: 4 } }],
  ["chart", { defaultSize: { w: 16, h: 10 }, minSize: { w: 6, h: 6 } }],
]);

function layout(id: string, name: string, x = 0): GridLayout {
  return {
    id,
    name,
    version: GRID_CONFIG_VERSION,
    items: [{ key: "widget/book/main", x, y: 0, w: 8, h: 10 }],
  };
}

function stored(savedAt: number, currentId: string, layouts: GridLayout[]): StoredLayouts {
  return { version: GRID_CONFIG_VERSION, currentId, savedAt, layouts };
}

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
let stop: (() => void) | null = null;

beforeAll(async () => {
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
    const url = requestUrl(input);
    if (url.endsWith("/config.json")) return Promise.resolve(new Response("{}", { status: 200 }));
    exchange.tokens.push(new Headers(init?.headers).get("bfx-token") ?? "");
    const body = jsonBody(init);
    if (url.endsWith("/v2/auth/r/settings")) {
      exchange.reads++;
      const rows = exchange.copy === undefined ? [] : [[LAYOUTS_SETTING_KEY, exchange.copy]];
      return Promise.resolve(new Response(JSON.stringify(rows), { status: 200 }));
    }
    if (url.endsWith("/v2/auth/w/settings/set")) {
      const settings = (body as { settings: Record<string, unknown> }).settings;
      exchange.saves.push(settings[LAYOUTS_SETTING_KEY]);
      exchange.copy = settings[LAYOUTS_SETTING_KEY];
      return Promise.resolve(new Response("[]", { status: 200 }));
    }
    return Promise.resolve(new Response("not found", { status: 404 }));
  });
  await loadConfig("http://127.0.0.1:5180");
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  vi.setSystemTime(T0);
  idb.store.clear();
  idb.writes.length = 0;
  exchange = { copy: undefined, reads: 0, saves: [], tokens: [] };
  auth.authToken = "token-1";
  layoutsState.layouts = [];
  layoutsState.mode = null;
  layoutsState.draft = null;
  layoutsState.currentId = "default";
  layoutsState.savedAt = 0;
  layoutsState.loaded = false;
  configureLayouts(rules, () => layout("default", ""));
});

afterEach(() => {
  stop?.();
  stop = null;
  vi.useRealTimers();
  auth.authToken = "";
});

/** Lets valtio's batched notification and the promise chains run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe("desk layouts persistence", () => {
  it("loads the newest copy: the exchange's when it is newer than IndexedDB's", async () => {
    idb.store.set(LAYOUTS_STORAGE_KEY, stored(T0 - 5000, "local", [layout("local", "Local")]));
    exchange.copy = stored(T0 - 1000, "remote", [layout("remote", "Remote"), layout("other", "Other")]);
    stop = await loadAndPersistLayouts();
    expect(layoutsState.loaded).toBe(true);
    expect(layoutsState.currentId).toBe("remote");
    expect(layoutsState.layouts.map((l) => l.name)).toEqual(["Remote", "Other"]);
    expect(layoutsState.savedAt).toBe(T0 - 1000);
    expect(exchange.tokens).toEqual(["token-1"]);
    // Loading is not a change: nothing is written back.
    await settle();
    expect(idb.writes).toEqual([]);
  });

  it("loads the newest copy: IndexedDB's when it is newer, or when the exchange's is unusable", async () => {
    idb.store.set(LAYOUTS_STORAGE_KEY, stored(T0 - 1000, "local", [layout("local", "Local")]));
    exchange.copy = stored(T0 - 5000, "remote", [layout("remote", "Remote")]);
    stop = await loadAndPersistLayouts();
    expect(layoutsState.layouts.map((l) => l.name)).toEqual(["Local"]);
    stop();

    exchange.copy = { version: "0.9", savedAt: T0, layouts: [layout("old", "Old")] };
    stop = await loadAndPersistLayouts();
    expect(layoutsState.layouts.map((l) => l.name)).toEqual(["Local"]);
  });

  it("keeps the defaults when neither copy exists, and reads no server copy when signed out", async () => {
    auth.authToken = "";
    exchange.copy = stored(T0, "remote", [layout("remote", "Remote")]);
    stop = await loadAndPersistLayouts();
    expect(exchange.reads).toBe(0);
    expect(layoutsState.layouts.map((l) => l.id)).toEqual(["default"]);
    expect(layoutsState.loaded).toBe(true);
  });

  it("writes IndexedDB at once and the exchange once per second of quiet, with the last state", async () => {
    stop = await loadAndPersistLayouts();
    renameLayout("default", "Main");
    await settle();
    expect(idb.writes).toHaveLength(1);
    const first = idb.writes[0]?.[1] as StoredLayouts;
    expect(first.layouts.map((l) => l.name)).toEqual(["Main"]);
    expect(first.savedAt).toBe(T0);
    expect(exchange.saves).toEqual([]);

    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DEBOUNCE_MS - 200);
    vi.setSystemTime(T0 + 900);
    renameLayout("default", "Main desk");
    await settle();
    expect(idb.writes).toHaveLength(2);
    // The first change's timer was replaced by the second's.
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DEBOUNCE_MS - 1);
    expect(exchange.saves).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exchange.saves).toHaveLength(1);
    const saved = exchange.saves[0] as StoredLayouts;
    expect(saved.layouts.map((l) => l.name)).toEqual(["Main desk"]);
    expect(saved.savedAt).toBe(T0 + 900);
    expect(saved.version).toBe(GRID_CONFIG_VERSION);
    expect(idb.store.get(LAYOUTS_STORAGE_KEY)).toEqual(saved);

    // What was saved is what the next load reads back (the newest of the two equal copies).
    stop();
    layoutsState.layouts = [];
    configureLayouts(rules, () => layout("default", ""));
    stop = await loadAndPersistLayouts();
    expect(layoutsState.layouts.map((l) => l.name)).toEqual(["Main desk"]);
  });

  it("saves neither draft edits nor mode changes, only saved changes", async () => {
    stop = await loadAndPersistLayouts();
    startEditing();
    moveWidget("widget/book/main", 4, 0);
    cancelEditing();
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DEBOUNCE_MS * 2);
    expect(idb.writes).toEqual([]);
    expect(exchange.saves).toEqual([]);
  });

  it("saves only locally when signed out, and a stopped store saves nothing more", async () => {
    auth.authToken = "";
    stop = await loadAndPersistLayouts();
    renameLayout("default", "Offline");
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DEBOUNCE_MS * 2);
    expect(idb.writes).toHaveLength(1);
    expect(exchange.saves).toEqual([]);
    stop();

    auth.authToken = "token-2";
    stop = await loadAndPersistLayouts();
    layoutsState.layouts.push(layout("second", "Second"));
    selectLayout("second");
    await settle();
    const writes = idb.writes.length;
    stop();
    stop = null;
    // The debounced save was pending: stopping cancels it.
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DEBOUNCE_MS * 2);
    expect(exchange.saves).toEqual([]);
    renameLayout("default", "After stop");
    await settle();
    expect(idb.writes).toHaveLength(writes);
  });
});
