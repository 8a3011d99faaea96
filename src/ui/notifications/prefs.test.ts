/**
 * The preferences stored on the exchange reach the desk: a kind turned off there is not notified
 * here (no toast, no sidebar entry), the sound setting follows, a value out of its bound is
 * ignored, and a change the exchange refuses is undone on this device too.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { notices, notify } from "../desk/notices";
import { resetSettings, settings } from "../settings/store";
import type { AuthCall } from "./api";
import { pullNotificationPrefs, setNotificationPref } from "./prefs";

beforeEach(() => {
  vi.useFakeTimers();
  resetSettings();
  notices.toasts.length = 0;
  notices.history.length = 0;
  notices.unread = 0;
});
afterEach(() => vi.useRealTimers());

/** The exchange's settings store behind the two settings calls. */
function exchange(stored: Record<string, unknown>, refuse = false): { call: AuthCall; paths: string[] } {
  const paths: string[] = [];
  const call: AuthCall = (path, body) => {
    paths.push(path);
    const b = body as { keys?: string[]; settings?: Record<string, unknown> };
    if (path === "/v2/auth/r/settings")
      return Promise.resolve({
        status: 200,
        body: (b.keys ?? []).filter((k) => k in stored).map((k) => [k, stored[k]]),
      });
    if (refuse) return Promise.resolve({ status: 0, body: null });
    Object.assign(stored, b.settings);
    return Promise.resolve({ status: 200, body: [Object.keys(b.settings ?? {}).length] });
  };
  return { call, paths };
}

describe("notification preferences on the desk", () => {
  it("applies the exchange's stored flags: a kind turned off shows no toast, the others still do", async () => {
    const { call } = exchange({ notify_orders: false, sound_notices: false, notify_trades: "yes", other: 1 });
    expect(await pullNotificationPrefs(call)).toEqual({ ok: true, value: 2 });
    expect(settings.notify_orders).toBe(false);
    expect(settings.sound_notices).toBe(false);
    // Out of its bound (not a boolean): ignored, the default kept.
    expect(settings.notify_trades).toBe(true);
    expect(notify({ level: "success", kind: "orders", text: "Order placed" })).toBeNull();
    expect(notify({ level: "success", kind: "trades", text: "Bought 0.1 BTC" })).not.toBeNull();
    expect(notices.toasts.map((n) => n.text)).toEqual(["Bought 0.1 BTC"]);
    expect(notices.history.map((n) => n.text)).toEqual(["Bought 0.1 BTC"]);
  });

  it("saves a change to the exchange and honours it at once", async () => {
    const stored: Record<string, unknown> = {};
    const { call, paths } = exchange(stored);
    const saving = setNotificationPref(call, "notify_funding", false);
    // Before the exchange answers, the desk already stops funding notices.
    expect(notify({ level: "info", kind: "funding", text: "Offer placed" })).toBeNull();
    expect(await saving).toEqual({ ok: true, value: true });
    expect(stored).toEqual({ notify_funding: false });
    expect(paths).toEqual(["/v2/auth/w/settings/set"]);
  });

  it("undoes a change the exchange could not store", async () => {
    const { call } = exchange({}, true);
    const r = await setNotificationPref(call, "notify_main", false);
    expect(r).toEqual({ ok: false, error: { kind: "unreachable" } });
    expect(settings.notify_main).toBe(true);
    expect(notify({ level: "info", kind: "main", text: "Resynced" })).not.toBeNull();
  });
});
