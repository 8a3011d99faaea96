import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NOTIFICATION_TTL_MS } from "../../protocol";
import { resetSettings, updateSetting } from "../settings/store";
import { dismiss, notices, notify, SIDEBAR_KEPT } from "./notices";

beforeEach(() => {
  vi.useFakeTimers();
  resetSettings();
  notices.toasts.length = 0;
  notices.history.length = 0;
  notices.unread = 0;
});

afterEach(() => {
  vi.useRealTimers();
});

describe("desk notices", () => {
  it("removes a toast after its 6000 ms, keeping it in the sidebar's history", () => {
    expect(NOTIFICATION_TTL_MS).toBe(6000);
    const a = notify({ level: "info", kind: "main", text: "a" });
    vi.advanceTimersByTime(2000);
    const b = notify({ level: "error", kind: "orders", text: "b" });
    expect(notices.toasts.map((n) => n.text)).toEqual(["a", "b"]);
    vi.advanceTimersByTime(3999);
    expect(notices.toasts.map((n) => n.text)).toEqual(["a", "b"]);
    vi.advanceTimersByTime(1);
    expect(notices.toasts.map((n) => n.text)).toEqual(["b"]);
    vi.advanceTimersByTime(2000);
    expect(notices.toasts).toEqual([]);
    // The sidebar keeps both, newest first, with their times.
    expect(notices.history.map((n) => n.text)).toEqual(["b", "a"]);
    expect(notices.history[0]?.mts).toBe((a?.mts ?? 0) + 2000);
    expect(b?.ttl).toBe(6000);
    expect(notices.unread).toBe(2);
  });

  it("keeps a toast with ttl 0 until dismissed, and dismisses by id", () => {
    const sticky = notify({ level: "warning", kind: "main", text: "resync", ttl: 0 });
    const other = notify({ level: "info", kind: "main", text: "other", ttl: 100 });
    vi.advanceTimersByTime(60_000);
    expect(notices.toasts.map((n) => n.text)).toEqual(["resync"]);
    dismiss(other?.id ?? -1);
    dismiss(sticky?.id ?? -1);
    expect(notices.toasts).toEqual([]);
  });

  it("bounds the sidebar's history, newest first", () => {
    for (let i = 0; i < SIDEBAR_KEPT + 5; i++) notify({ level: "info", kind: "main", text: `n${i}` });
    expect(notices.history).toHaveLength(SIDEBAR_KEPT);
    expect(notices.history[0]?.text).toBe(`n${SIDEBAR_KEPT + 4}`);
    expect(notices.history.at(-1)?.text).toBe("n5");
  });

  it("drops a kind the user switched off: no toast, no sidebar entry, no unread count", () => {
    for (const [kind, key] of [
      ["main", "notify_main"],
      ["orders", "notify_orders"],
      ["trades", "notify_trades"],
      ["funding", "notify_funding"],
    ] as const) {
      resetSettings();
      updateSetting(key, false);
      const before = notices.history.length;
      expect(notify({ level: "info", kind, text: `off ${kind}` })).toBeNull();
      expect(notices.history.length).toBe(before);
      // The other kinds still come through.
      const other = kind === "main" ? "orders" : "main";
      expect(notify({ level: "info", kind: other, text: `on ${other}` })).not.toBeNull();
    }
    expect(notices.history.some((n) => n.text.startsWith("off"))).toBe(false);
    expect(notices.toasts.map((n) => n.text)).toEqual(["on orders", "on main", "on main", "on main"]);
    expect(notices.unread).toBe(4);
    // No timer was left behind for a dropped notice.
    vi.advanceTimersByTime(NOTIFICATION_TTL_MS);
    expect(notices.toasts).toEqual([]);
  });

  it("keeps one notice per key: told again, it is rewritten in place and its TTL starts over", () => {
    notify({ level: "info", kind: "main", text: "other" });
    const first = notify({ level: "success", kind: "trades", text: "Buying: 0.1 filled", key: "fills:42" });
    vi.advanceTimersByTime(5000);
    const again = notify({ level: "success", kind: "trades", text: "Bought 0.8", key: "fills:42" });
    expect(again?.id).toBe(first?.id);
    expect(notices.toasts.map((n) => n.text)).toEqual(["other", "Bought 0.8"]);
    expect(notices.history.map((n) => n.text)).toEqual(["Bought 0.8", "other"]);
    expect(notices.unread).toBe(2);
    // The first telling's timer no longer removes it; the second's does.
    vi.advanceTimersByTime(NOTIFICATION_TTL_MS - 1);
    expect(notices.toasts.map((n) => n.text)).toEqual(["Bought 0.8"]);
    vi.advanceTimersByTime(1);
    expect(notices.toasts).toEqual([]);
    // Told after its toast left: the toast shows again, still one entry in the history.
    notify({ level: "success", kind: "trades", text: "Bought 0.9", key: "fills:42" });
    expect(notices.toasts.map((n) => n.text)).toEqual(["Bought 0.9"]);
    expect(notices.history.filter((n) => n.key === "fills:42")).toHaveLength(1);
  });
});
