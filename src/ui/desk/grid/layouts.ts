/**
 * The desk's layouts (docs/product-rules.md#layouts: mode CREATING or EDITING): a list of named layouts, the
 * current one, and an edit session. Edits go to a draft and only replace the saved layout on save,
 * so a half-finished arrangement never leaks into the stored one; in CREATING mode the draft is a
 * new layout and is the one shown (the grid being created is current only in CREATING mode).
 * Saved locally with idb-keyval on every change and, for a signed-in user, to the exchange's settings
 * store (debounced 1 s, the product's update debounce), newest copy winning on load.
 */
import { get, set } from "idb-keyval";
import { proxy, snapshot, subscribe } from "valtio";
import { GRID_CONFIG_VERSION } from "../../../protocol";
import { auth } from "../../auth";
import { apiUrl, appConfig } from "../../config";
import { exchangeFetch } from "../../shell/api-notice";
import { log } from "../../log";
import { appScheduler, type Cancel } from "../../scheduler";
import {
  addItem,
  freshId,
  moveItem,
  parseLayout,
  removeItem,
  resizeItem,
  type GridItem,
  type GridLayout,
  type SizeRule,
} from "./layout";

export const LAYOUTS_STORAGE_KEY = "desk-layouts";
/** The key under which the exchange's settings store keeps the layouts. */
export const LAYOUTS_SETTING_KEY = "desk_layouts";
export const SERVER_SAVE_DEBOUNCE_MS = 1000;

export type LayoutMode = "CREATING" | "EDITING";

export interface LayoutsState {
  layouts: GridLayout[];
  currentId: string;
  mode: LayoutMode | null;
  /** The layout being edited or created; null outside an edit session. */
  draft: GridLayout | null;
  /** Epoch ms of the last saved change, to pick the newest of the local and the server copy. */
  savedAt: number;
  loaded: boolean;
}

export interface StoredLayouts {
  readonly version: string;
  readonly currentId: string;
  readonly savedAt: number;
  readonly layouts: readonly GridLayout[];
}

export const DEFAULT_LAYOUT_ID = "default";

/** The layout on screen: the draft during an edit session, else the current saved one. */
export function shownLayout(state: LayoutsState): GridLayout | null {
  return state.draft ?? state.layouts.find((l) => l.id === state.currentId) ?? state.layouts[0] ?? null;
}

/**
 * One desk's layouts: the trading desk's and the funding desk's are kept apart, each under its own
 * IndexedDB key and exchange setting, so a funding layout never shows trading widgets (nor the
 * reverse).
 */
export function createLayoutStore(storageKey: string, settingKey: string) {
  const layoutsState: LayoutsState = proxy({
    layouts: [],
    currentId: DEFAULT_LAYOUT_ID,
    mode: null,
    draft: null,
    savedAt: 0,
    loaded: false,
  });

  let defaults: () => GridLayout = () => ({ id: DEFAULT_LAYOUT_ID, name: "", version: GRID_CONFIG_VERSION, items: [] });
  let rules: ReadonlyMap<string, SizeRule> = new Map();

  /** Tells the store which widget types exist, their sizes, and the default layout. */
  function configureLayouts(widgetRules: ReadonlyMap<string, SizeRule>, makeDefault: () => GridLayout): void {
    rules = widgetRules;
    defaults = makeDefault;
    if (layoutsState.layouts.length === 0) layoutsState.layouts = [makeDefault()];
  }

  /** Reads stored layouts (null when absent or unusable). */
  function parseStored(raw: unknown): StoredLayouts | null {
    if (typeof raw !== "object" || raw === null) return null;
    const r = raw as Record<string, unknown>;
    if (r["version"] !== GRID_CONFIG_VERSION || !Array.isArray(r["layouts"])) return null;
    const known = new Set(rules.keys());
    const layouts = (r["layouts"] as unknown[])
      .map((l) => parseLayout(l, known))
      .filter((l): l is GridLayout => l !== null);
    if (layouts.length === 0) return null;
    const currentId =
      typeof r["currentId"] === "string" && layouts.some((l) => l.id === r["currentId"])
        ? r["currentId"]
        : (layouts[0] as GridLayout).id;
    const savedAt = typeof r["savedAt"] === "number" && Number.isFinite(r["savedAt"]) ? r["savedAt"] : 0;
    return { version: GRID_CONFIG_VERSION, currentId, savedAt, layouts };
  }

  function apply(stored: StoredLayouts): void {
    layoutsState.layouts = stored.layouts.map((l) => ({ ...l, items: [...l.items] }));
    layoutsState.currentId = stored.currentId;
    layoutsState.savedAt = stored.savedAt;
  }

  function toStored(): StoredLayouts {
    const s = snapshot(layoutsState);
    return { version: GRID_CONFIG_VERSION, currentId: s.currentId, savedAt: s.savedAt, layouts: s.layouts };
  }

  function touch(): void {
    layoutsState.savedAt = appScheduler.now();
  }

  // ---- edit session ---------------------------------------------------------------------------

  function startEditing(): void {
    const current = shownLayout(layoutsState);
    if (!current || layoutsState.mode) return;
    layoutsState.mode = "EDITING";
    layoutsState.draft = { ...current, items: [...current.items] };
  }

  function startCreating(name: string): void {
    if (layoutsState.mode) cancelEditing();
    const base = defaults();
    const id = `l-${freshId([], Math.random)}`;
    layoutsState.mode = "CREATING";
    layoutsState.draft = { ...base, id, name };
  }

  function saveEditing(): void {
    const draft = layoutsState.draft;
    if (!draft) return;
    const at = layoutsState.layouts.findIndex((l) => l.id === draft.id);
    if (at >= 0) layoutsState.layouts[at] = draft;
    else layoutsState.layouts.push(draft);
    layoutsState.currentId = draft.id;
    layoutsState.mode = null;
    layoutsState.draft = null;
    touch();
  }

  function cancelEditing(): void {
    layoutsState.mode = null;
    layoutsState.draft = null;
  }

  function editDraft(change: (items: readonly GridItem[]) => GridItem[]): void {
    const draft = layoutsState.draft;
    if (!draft) return;
    layoutsState.draft = { ...draft, items: change(draft.items) };
  }

  function moveWidget(key: string, x: number, y: number): void {
    editDraft((items) => moveItem(items, key, x, y));
  }

  function resizeWidget(key: string, w: number, h: number): void {
    const type = key.split("/")[1] ?? "";
    editDraft((items) => resizeItem(items, key, w, h, rules.get(type)?.minSize));
  }

  function removeWidget(key: string): void {
    editDraft((items) => removeItem(items, key));
  }

  function addWidget(type: string): void {
    const rule = rules.get(type);
    if (!rule) return;
    editDraft((items) => addItem(items, type, rule, freshId(items, Math.random)));
  }

  /** Pins a widget to a pair (or back to the desk's pair with null). */
  function pinWidget(key: string, pair: string | null): void {
    editDraft((items) =>
      items.map((i) => {
        if (i.key !== key) return i;
        const { pair: _drop, ...rest } = i;
        return pair ? { ...rest, pair } : rest;
      }),
    );
  }

  // ---- layouts ------------------------------------------------------------------------------

  function selectLayout(id: string): void {
    if (layoutsState.mode || !layoutsState.layouts.some((l) => l.id === id)) return;
    layoutsState.currentId = id;
    touch();
  }

  function renameLayout(id: string, name: string): void {
    const trimmed = name.trim().slice(0, 60);
    if (trimmed === "") return;
    const at = layoutsState.layouts.findIndex((l) => l.id === id);
    const layout = layoutsState.layouts[at];
    if (layout) layoutsState.layouts[at] = { ...layout, name: trimmed };
    if (layoutsState.draft?.id === id) layoutsState.draft = { ...layoutsState.draft, name: trimmed };
    touch();
  }

  /** Puts the current layout's widgets back to the default arrangement (keeps its name). */
  function resetLayout(): void {
    const items = defaults().items;
    if (layoutsState.draft) {
      layoutsState.draft = { ...layoutsState.draft, items: [...items] };
      return;
    }
    const at = layoutsState.layouts.findIndex((l) => l.id === layoutsState.currentId);
    const layout = layoutsState.layouts[at];
    if (layout) layoutsState.layouts[at] = { ...layout, items: [...items] };
    touch();
  }

  function deleteLayout(id: string): void {
    if (layoutsState.mode || layoutsState.layouts.length <= 1) return;
    layoutsState.layouts = layoutsState.layouts.filter((l) => l.id !== id);
    if (layoutsState.currentId === id) layoutsState.currentId = (layoutsState.layouts[0] as GridLayout).id;
    touch();
  }

  // ---- persistence ----------------------------------------------------------------------------

  async function serverCall(path: string, body: unknown): Promise<unknown> {
    const res = await exchangeFetch(apiUrl(appConfig().endpoints, path), {
      method: "POST",
      headers: { "content-type": "application/json", "bfx-token": auth.authToken },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return res.json();
  }

  async function readServerCopy(): Promise<StoredLayouts | null> {
    if (auth.authToken === "") return null;
    try {
      const rows = await serverCall("/v2/auth/r/settings", { keys: [settingKey] });
      const row = Array.isArray(rows) ? (rows as unknown[]).find((r) => Array.isArray(r) && r[0] === settingKey) : null;
      return Array.isArray(row) ? parseStored(row[1]) : null;
    } catch (err) {
      log.warn("desk layouts could not be read from the exchange", err);
      return null;
    }
  }

  /**
   * Loads the newest stored copy (local or, when signed in, the server's), then saves every later
   * change: locally at once, to the server debounced. Returns the stop function.
   */
  async function loadAndPersistLayouts(): Promise<() => void> {
    let local: StoredLayouts | null = null;
    try {
      local = parseStored(await get(storageKey));
    } catch (err) {
      log.error("desk layouts could not be read from IndexedDB", err);
    }
    const remote = await readServerCopy();
    const newest = [local, remote]
      .filter((s): s is StoredLayouts => s !== null)
      .sort((a, b) => b.savedAt - a.savedAt)[0];
    if (newest) apply(newest);
    layoutsState.loaded = true;

    let pendingServer: Cancel | null = null;
    let lastSavedAt = layoutsState.savedAt;
    const unsubscribe = subscribe(layoutsState, () => {
      if (layoutsState.savedAt === lastSavedAt) return; // draft edits and mode changes are not saved
      lastSavedAt = layoutsState.savedAt;
      const stored = toStored();
      void set(storageKey, stored).catch((err: unknown) => log.error("desk layouts not saved", err));
      if (auth.authToken === "") return;
      pendingServer?.();
      pendingServer = appScheduler.after(SERVER_SAVE_DEBOUNCE_MS, () => {
        pendingServer = null;
        void serverCall("/v2/auth/w/settings/set", { settings: { [settingKey]: stored } }).catch((err: unknown) =>
          log.warn("desk layouts not saved to the exchange", err),
        );
      });
    });
    return () => {
      unsubscribe();
      pendingServer?.();
    };
  }

  return {
    state: layoutsState,
    configureLayouts,
    parseStored,
    startEditing,
    startCreating,
    saveEditing,
    cancelEditing,
    moveWidget,
    resizeWidget,
    removeWidget,
    addWidget,
    pinWidget,
    selectLayout,
    renameLayout,
    resetLayout,
    deleteLayout,
    loadAndPersistLayouts,
  };
}

const trading = createLayoutStore(LAYOUTS_STORAGE_KEY, LAYOUTS_SETTING_KEY);

/** The trading desk's layouts. */
export const layoutsState = trading.state;
export const {
  configureLayouts,
  parseStored,
  startEditing,
  startCreating,
  saveEditing,
  cancelEditing,
  moveWidget,
  resizeWidget,
  removeWidget,
  addWidget,
  pinWidget,
  selectLayout,
  renameLayout,
  resetLayout,
  deleteLayout,
  loadAndPersistLayouts,
} = trading;
