/**
 * Every user setting (docs/product-rules.md#settings), with its default and, where it
 * has one, its bound: a numeric min/max or a closed list of values. `acceptSetting` is the single
 * rule for updates: a value of the wrong type or outside its bound is ignored (docs/product-rules.md#settings-values).
 */
import {
  BITCOIN_VIEW_MODE_DEFAULT,
  CHART_HEIGHT,
  DEFAULT_CURRENCY,
  DEFAULT_LEVERAGE,
  GRID_CONFIG_VERSION,
  HIDE_SMALL_BALANCES_THRESHOLD,
  LEVERAGE_MAX,
  LEVERAGE_MIN,
  LOCALES,
  ORDERS_LIMIT,
  WITHDRAWAL_MAX_LNX,
  WITHDRAWAL_MIN_LNX,
  type Locale,
} from "../../protocol";
import {
  COLOR_SCHEMES,
  THEME_MODES,
  THEME_NAMES,
  type ColorScheme,
  type ThemeMode,
  type ThemeName,
} from "../theme/theme";

/** Candle timeframes the exchange offers; the chart interval setting is one of them. */
export const CANDLE_TIMEFRAMES = ["1m", "5m", "15m", "30m", "1h", "3h", "6h", "12h", "1D", "1W", "14D", "1M"] as const;
export type CandleTimeframe = (typeof CANDLE_TIMEFRAMES)[number];

export interface UserSettings {
  locale: Locale;
  market_type: "trading" | "funding";
  chart_height: number;
  /** The product's "chart interval 30": 30 minutes, kept as the exchange's timeframe key. */
  chart_interval: CandleTimeframe;
  /** Funding chart period range in days, [min, max]. */
  funding_chart_period: [number, number];
  show_chart_orders: boolean;
  show_chart_positions: boolean;
  show_chart_alerts: boolean;
  show_liquidations: boolean;
  show_trades: boolean;
  orders_display_limit: number;
  theme: ThemeName;
  theme_mode: ThemeMode;
  color_scheme: ColorScheme;
  /** theme_with_mode, kept in step with theme and theme_mode ("default:dark"). */
  theme_with_mode: string;
  /** The OS mode last seen, for the "auto" theme mode. */
  browser_theme_mode: "dark" | "light";
  sidebar_side: "left" | "right";
  sidebar_collapsed: boolean;
  favorite_symbols: string[];
  ticker_vol_unit: string;
  ticker_favorites_only: boolean;
  /** Custom ticker order per market type (exchange, margin, derivative, funding…). */
  ticker_custom_order: Record<string, string[]>;
  book_layout: number;
  book_precision: number;
  /** How often the book view is republished to the screen, in ms (0: every animation frame). */
  book_throttle_ms: number;
  book_compact_numbers: boolean;
  derivative_leverage: number;
  order_form_derivative_leverage: number;
  trade_type: "exchange" | "margin";
  hide_small_balances: boolean;
  small_balances_threshold: number;
  balances_tab: "both" | "exchange" | "margin" | "funding";
  orders_filter: "all" | "buy" | "sell";
  order_filters: Record<string, string>;
  trades_tab: number;
  total_equivalent_currency: string;
  notify_main: boolean;
  notify_funding: boolean;
  notify_trades: boolean;
  notify_orders: boolean;
  email_withdrawal_completed: boolean;
  email_deposit_arrived: boolean;
  email_deposit_completed: boolean;
  sound_notices: boolean;
  notifications_sidebar_visible: boolean;
  banners_closed: Record<string, boolean>;
  collapsed_widgets: Record<string, boolean>;
  collapsed_groups_of_orders: Record<string, boolean>;
  tables_sorting: Record<string, string>;
  algorithmic_orders: boolean;
  ack_stop_order_warning: boolean;
  ack_interactive_book_order_warning: boolean;
  /** The order form keeps its amount after a placed order (off: it clears, so an order is not sent twice by mistake). */
  order_form_keep_amount: boolean;
  grid_config_version: string;
  bitcoin_view_enabled: boolean;
  bitcoin_view_mode: string;
  utc_offset: number;
  time_format: string;
  withdrawals_max_lnx: number;
  withdrawals_min_lnx: number;
}

export type SettingKey = keyof UserSettings;

export const DEFAULT_SETTINGS: Readonly<UserSettings> = Object.freeze({
  locale: "en",
  market_type: "trading",
  chart_height: CHART_HEIGHT,
  chart_interval: "30m",
  funding_chart_period: [2, 30],
  show_chart_orders: true,
  show_chart_positions: true,
  show_chart_alerts: true,
  show_liquidations: true,
  show_trades: false,
  orders_display_limit: ORDERS_LIMIT,
  theme: "default",
  theme_mode: "dark",
  color_scheme: "default",
  theme_with_mode: "default:dark",
  browser_theme_mode: "dark",
  sidebar_side: "left",
  sidebar_collapsed: false,
  favorite_symbols: [],
  ticker_vol_unit: DEFAULT_CURRENCY,
  ticker_favorites_only: false,
  ticker_custom_order: {},
  book_layout: 2,
  book_precision: 0,
  book_throttle_ms: 100,
  book_compact_numbers: true,
  derivative_leverage: DEFAULT_LEVERAGE,
  order_form_derivative_leverage: DEFAULT_LEVERAGE,
  trade_type: "exchange",
  hide_small_balances: true,
  small_balances_threshold: HIDE_SMALL_BALANCES_THRESHOLD,
  balances_tab: "both",
  orders_filter: "all",
  order_filters: { pair: "CURRENT_PAIR" },
  trades_tab: 0,
  total_equivalent_currency: DEFAULT_CURRENCY,
  notify_main: true,
  notify_funding: true,
  notify_trades: true,
  notify_orders: true,
  email_withdrawal_completed: true,
  email_deposit_arrived: true,
  email_deposit_completed: true,
  sound_notices: true,
  notifications_sidebar_visible: false,
  banners_closed: {},
  collapsed_widgets: {},
  collapsed_groups_of_orders: {},
  tables_sorting: {},
  algorithmic_orders: false,
  ack_stop_order_warning: false,
  ack_interactive_book_order_warning: false,
  order_form_keep_amount: false,
  grid_config_version: GRID_CONFIG_VERSION,
  bitcoin_view_enabled: false,
  bitcoin_view_mode: BITCOIN_VIEW_MODE_DEFAULT,
  utc_offset: 0,
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a date pattern (the product's default), not text
  time_format: "YY-MM-DD HH:mm:ss",
  withdrawals_max_lnx: WITHDRAWAL_MAX_LNX,
  withdrawals_min_lnx: WITHDRAWAL_MIN_LNX,
} satisfies UserSettings);

interface NumberBound {
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
}

/** Numeric bounds. A number setting without an entry here accepts any finite number. */
export const NUMBER_BOUNDS: Partial<Record<SettingKey, NumberBound>> = {
  chart_height: { min: 200, max: 1600, integer: true },
  orders_display_limit: { min: 1, max: 500, integer: true },
  book_layout: { min: 1, max: 3, integer: true },
  book_precision: { min: 0, max: 4, integer: true },
  book_throttle_ms: { min: 0, max: 5000, integer: true },
  derivative_leverage: { min: LEVERAGE_MIN, max: LEVERAGE_MAX },
  order_form_derivative_leverage: { min: LEVERAGE_MIN, max: LEVERAGE_MAX },
  small_balances_threshold: { min: 0, max: 1000 },
  trades_tab: { min: 0, max: 1, integer: true },
  utc_offset: { min: -12, max: 14 },
  withdrawals_max_lnx: { min: 0, max: 10 },
  withdrawals_min_lnx: { min: 0, max: 10 },
};

/** Closed lists for string settings. */
export const STRING_CHOICES: Partial<Record<SettingKey, readonly string[]>> = {
  locale: LOCALES,
  market_type: ["trading", "funding"],
  chart_interval: CANDLE_TIMEFRAMES,
  theme: THEME_NAMES,
  theme_mode: THEME_MODES,
  color_scheme: COLOR_SCHEMES,
  browser_theme_mode: ["dark", "light"],
  sidebar_side: ["left", "right"],
  trade_type: ["exchange", "margin"],
  balances_tab: ["both", "exchange", "margin", "funding"],
  orders_filter: ["all", "buy", "sell"],
  bitcoin_view_mode: ["BTC", "TESTBTC"],
};

/** The `tables_sorting` value form: column-asc or column-desc (docs/product-rules.md#settings-values). */
export const TABLE_SORTING = /^[A-Za-z0-9_]+-(asc|desc)$/;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` may be stored under `key`. Wrong type, out-of-bounds numbers, values outside a
 * closed list and malformed table sorting are refused.
 */
export function acceptSetting<K extends SettingKey>(key: K, value: unknown): value is UserSettings[K] {
  const fallback: unknown = DEFAULT_SETTINGS[key];
  if (typeof fallback === "number") {
    if (typeof value !== "number" || !Number.isFinite(value)) return false;
    const bound = NUMBER_BOUNDS[key];
    if (!bound) return true;
    if (bound.integer === true && !Number.isInteger(value)) return false;
    return value >= bound.min && value <= bound.max;
  }
  if (typeof fallback === "boolean") return typeof value === "boolean";
  if (typeof fallback === "string") {
    if (typeof value !== "string") return false;
    const choices = STRING_CHOICES[key];
    return choices === undefined || choices.includes(value);
  }
  if (key === "funding_chart_period") {
    return (
      Array.isArray(value) &&
      value.length === 2 &&
      value.every((d) => Number.isInteger(d) && d >= 2 && d <= 120) &&
      (value[0] as number) <= (value[1] as number)
    );
  }
  if (Array.isArray(fallback)) return Array.isArray(value) && value.every((v) => typeof v === "string");
  if (isPlainRecord(fallback)) {
    if (!isPlainRecord(value)) return false;
    if (key === "tables_sorting")
      return Object.values(value).every((v) => typeof v === "string" && TABLE_SORTING.test(v));
    return true;
  }
  return false;
}
