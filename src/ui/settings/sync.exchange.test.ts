/**
 * The settings across devices (sync.ts) against the embedded exchange over real HTTP: this device's
 * choices reach the exchange stamped, another device's later change (written to the exchange as
 * that device would) is applied here, and an older one is not — this device's newer choice goes
 * back instead.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { decodeStampedSetting, syncedSettingKey } from "../../protocol";
import { openVenue } from "../../../server/exchange/venue.ts";
import { demoSession, until } from "../../../server/test-support/session.ts";
import { resetSettings, settings, updateSetting } from "./store";
import { SETTINGS_SEND_DEBOUNCE_MS, syncSettingsWithExchange } from "./sync";

const venue = openVenue({ dbPath: ":memory:", seed: 3, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const demo = demoSession({ exchange: venue.exchange, account: venue.gateway });
afterAll(() => venue.db.close());

let clock = Date.UTC(2026, 10, 26, 12, 0, 0);

async function stored(key: string): Promise<{ value: unknown; changedAt: number } | null> {
  const { body } = await demo.rest("/v2/auth/r/settings", { keys: [syncedSettingKey(key)] });
  const row = (body as [string, unknown][]).find((r) => r[0] === syncedSettingKey(key));
  return row ? decodeStampedSetting(row[1]) : null;
}

const settle = (ms = SETTINGS_SEND_DEBOUNCE_MS + 300) => new Promise((r) => setTimeout(r, ms));

/** What another device does when its user changes a setting: writes it, stamped with its time. */
const otherDevice = (key: string, value: unknown, t: number) =>
  demo.rest("/v2/auth/w/settings/set", { settings: { [syncedSettingKey(key)]: { v: value, t } } });

function device() {
  return syncSettingsWithExchange({
    call: async (path, body) => demo.rest(path, body),
    user: { current: () => 1, watch: () => () => {} },
    now: () => clock,
  });
}

describe("user settings across devices", () => {
  beforeEach(() => resetSettings());

  it("sends a choice made here, stamped with its time, and not a device default", async () => {
    const stop = await device();
    clock += 1000;
    updateSetting("chart_height", 600);
    await settle();
    expect(await stored("chart_height")).toEqual({ value: 600, changedAt: clock });
    // Never chosen here: not sent.
    expect(await stored("orders_display_limit")).toBeNull();
    // This device's colour mode is the system's, not the person's: never sent.
    updateSetting("browser_theme_mode", "light");
    await settle();
    expect(await stored("browser_theme_mode")).toBeNull();
    stop();
  });

  it("applies another device's later change, and sends back a newer one made here", async () => {
    const stop = await device();
    // Chosen here at `clock`; the other device chose later: its value wins here.
    clock += 1000;
    updateSetting("book_throttle_ms", 300);
    await settle();
    await otherDevice("book_throttle_ms", 700, clock + 5000);
    stop();
    const again = await device();
    await until(() => settings.book_throttle_ms === 700, "the later change from the other device");

    // The other device's change to the chart height was made before this one's: this one stands
    // and goes back to the exchange.
    clock += 10_000;
    updateSetting("chart_height", 640);
    await settle();
    await otherDevice("chart_height", 520, clock - 60_000);
    again();
    const third = await device();
    await settle(500);
    expect(settings.chart_height).toBe(640);
    expect(await stored("chart_height")).toEqual({ value: 640, changedAt: clock });
    third();
  });

  it("ignores a value its bound refuses and a stored entry that is not a stamped setting", async () => {
    await otherDevice("chart_height", 99_999, clock + 100_000);
    await demo.rest("/v2/auth/w/settings/set", { settings: { [syncedSettingKey("orders_display_limit")]: 50 } });
    const stop = await device();
    await settle(500);
    expect(settings.chart_height).not.toBe(99_999);
    expect(settings.orders_display_limit).not.toBe(50);
    stop();
  });
});
