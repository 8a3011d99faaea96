import { describe, expect, it } from "vitest";
import { acceptSetting, DEFAULT_SETTINGS, NUMBER_BOUNDS, type SettingKey } from "./schema";

describe("settings defaults (docs/product-rules.md#defaults)", () => {
  it("holds the listed defaults", () => {
    expect(DEFAULT_SETTINGS).toMatchObject({
      market_type: "trading",
      chart_height: 515,
      chart_interval: "30m",
      funding_chart_period: [2, 30],
      show_chart_orders: true,
      show_chart_positions: true,
      show_chart_alerts: true,
      show_liquidations: true,
      show_trades: false,
      orders_display_limit: 20,
      theme: "default",
      theme_mode: "dark",
      color_scheme: "default",
      sidebar_side: "left",
      favorite_symbols: [],
      book_layout: 2,
      book_precision: 0,
      derivative_leverage: 10,
      trade_type: "exchange",
      hide_small_balances: true,
      small_balances_threshold: 0.00001,
      balances_tab: "both",
      orders_filter: "all",
      trades_tab: 0,
      total_equivalent_currency: "USD",
      notify_main: true,
      notify_funding: true,
      notify_trades: true,
      notify_orders: true,
      email_withdrawal_completed: true,
      email_deposit_arrived: true,
      email_deposit_completed: true,
      book_compact_numbers: true,
      banners_closed: {},
      sidebar_collapsed: false,
      grid_config_version: "1.0.0",
      order_filters: { pair: "CURRENT_PAIR" },
      utc_offset: 0,
      time_format: "YY-MM-DD HH:mm:ss",
      withdrawals_max_lnx: 0.02,
      withdrawals_min_lnx: 0.000001,
      bitcoin_view_enabled: false,
      bitcoin_view_mode: "BTC",
    });
  });

  it("every default passes its own bound", () => {
    for (const key of Object.keys(DEFAULT_SETTINGS) as SettingKey[]) {
      expect(acceptSetting(key, DEFAULT_SETTINGS[key]), key).toBe(true);
    }
  });
});

describe("acceptSetting", () => {
  it("accepts values inside a numeric bound, inclusive, and refuses those outside", () => {
    for (const [key, bound] of Object.entries(NUMBER_BOUNDS) as [SettingKey, { min: number; max: number }][]) {
      expect(acceptSetting(key, bound.min), `${key} min`).toBe(true);
      expect(acceptSetting(key, bound.max), `${key} max`).toBe(true);
      expect(acceptSetting(key, bound.min - 1), `${key} below`).toBe(false);
      expect(acceptSetting(key, bound.max + 1), `${key} above`).toBe(false);
    }
  });

  it("enforces leverage 1..100 and whole numbers where required", () => {
    expect(acceptSetting("derivative_leverage", 0.5)).toBe(false);
    expect(acceptSetting("derivative_leverage", 100)).toBe(true);
    expect(acceptSetting("derivative_leverage", 101)).toBe(false);
    expect(acceptSetting("orders_display_limit", 20.5)).toBe(false);
    expect(acceptSetting("book_precision", 5)).toBe(false);
  });

  it("refuses wrong types, NaN and infinities", () => {
    expect(acceptSetting("chart_height", "515")).toBe(false);
    expect(acceptSetting("chart_height", Number.NaN)).toBe(false);
    expect(acceptSetting("chart_height", Number.POSITIVE_INFINITY)).toBe(false);
    expect(acceptSetting("show_trades", "true")).toBe(false);
    expect(acceptSetting("favorite_symbols", ["tBTCUSD", 3])).toBe(false);
    expect(acceptSetting("banners_closed", [])).toBe(false);
    expect(acceptSetting("banners_closed", null)).toBe(false);
  });

  it("keeps string settings inside their closed lists", () => {
    expect(acceptSetting("theme", "classic")).toBe(true);
    expect(acceptSetting("theme", "neon")).toBe(false);
    expect(acceptSetting("theme_mode", "auto")).toBe(true);
    expect(acceptSetting("color_scheme", "red-up")).toBe(true);
    expect(acceptSetting("locale", "zh-TW")).toBe(true);
    expect(acceptSetting("locale", "de")).toBe(false);
    expect(acceptSetting("chart_interval", "30m")).toBe(true);
    expect(acceptSetting("chart_interval", "7m")).toBe(false);
  });

  it("accepts table sorting only as column-asc or column-desc", () => {
    expect(acceptSetting("tables_sorting", { orders: "price-asc", trades: "mts_create-desc" })).toBe(true);
    expect(acceptSetting("tables_sorting", { orders: "price-up" })).toBe(false);
    expect(acceptSetting("tables_sorting", { orders: "price" })).toBe(false);
    expect(acceptSetting("tables_sorting", { orders: 1 })).toBe(false);
  });

  it("checks the funding chart period range", () => {
    expect(acceptSetting("funding_chart_period", [2, 120])).toBe(true);
    expect(acceptSetting("funding_chart_period", [30, 2])).toBe(false);
    expect(acceptSetting("funding_chart_period", [1, 30])).toBe(false);
    expect(acceptSetting("funding_chart_period", [2])).toBe(false);
  });
});
