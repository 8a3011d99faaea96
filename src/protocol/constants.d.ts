/**
 * Business constants and limits (SPEC section 9). Shared by the worker, the UI and the embedded
 * exchange so that every thread agrees on the same numbers.
 */
/** Time units in milliseconds. */
export declare const MINUTE_MS = 60000;
export declare const HOUR_MS = 3600000;
export declare const DAY_MS = 86400000;
export declare const WEEK_MS = 604800000;
/** Session and token timing. */
export declare const AUTH_HEARTBEAT_MS = 10000;
export declare const TOKEN_EXPIRY_MS = 480000;
export declare const USER_INFO_POLL_MS = 120000;
export declare const TEMP_TOKEN_REFRESH_MS = 120000;
export declare const KEEP_ALIVE_INTERVAL_MS = 420000;
export declare const TOKEN_TTL_S = 3600;
export declare const TOKEN_DELETE_TIMEOUT_MS = 2000;
/** Navigation. */
export declare const DELAYED_PAGE_LOAD_MS = 1000;
export declare const PAGE_DATA_MAX_RETRIES = 3;
export declare const PREFETCH_BATCH_SIZE = 4;
export declare const PREFETCH_INTERVAL_MS = 3000;
/** Rate caches. */
export declare const RATE_CACHE_TTL_MS = 60000;
export declare const USD_RATE_REUSE_MS = 30000;
/** Query cache. */
export declare const QUERY_UNUSED_KEEP_MS = 60000;
export declare const SUBSCRIPTION_BATCH_MS = 500;
/** The largest delay a browser timer accepts (2^31 - 1 ms); longer timers fire at once. */
export declare const MAX_TIMER_MS = 2147482647;
/** Cookie banner consent lifetime: 90 days. */
export declare const COOKIE_CONSENT_TTL_MS = 7776000000;
/** Order books. */
export declare const BOOK_PRECISIONS: readonly ["P0", "P1", "P2", "P3", "P4"];
export type BookPrecision = (typeof BOOK_PRECISIONS)[number];
export declare const BOOK_FREQUENCIES: readonly ["F0", "F1"];
export type BookFrequency = (typeof BOOK_FREQUENCIES)[number];
export declare const BOOK_LENGTHS: readonly [1, 25, 100, 250];
export type BookLength = (typeof BOOK_LENGTHS)[number];
export declare const DEFAULT_BOOK_LENGTH: BookLength;
export declare const ALTERNATE_BOOK_LENGTH: BookLength;
/** The checksum covers this many levels per side, interleaved bid/ask. */
export declare const CHECKSUM_LEVELS = 25;
export declare const CANDLE_SNAPSHOT_LIMIT = 120;
export declare const NOTIFICATION_TTL_MS = 6000;
export declare const WS_PUBSUB_CONSTANT = 14336;
/** Trades list trimming: when more than 48 are stored, keep the newest 24. */
export declare const TRADES_TRIM_ABOVE = 48;
export declare const TRADES_TRIM_KEEP = 24;
/** Number formatting. */
export declare const PRICE_SIGNIFICANT_DIGITS = 5;
export declare const WALLET_DECIMALS = 8;
export declare const WALLET_DECIMALS_SHORT = 5;
export declare const MAX_DECIMAL_PLACES = 20;
/** Settings updates are debounced: 1000 ms in production, 350 ms otherwise. */
export declare const UPDATE_DEBOUNCE_PROD_MS = 1000;
export declare const UPDATE_DEBOUNCE_DEV_MS = 350;
/** Stress-test intensities: one burst of `count` updates every `intervalMs`. */
export interface StressIntensity {
  readonly intervalMs: number;
  readonly count: number;
}
export declare const STRESS_INTENSITIES: readonly StressIntensity[];
/** Withdrawals and balances. */
export declare const WITHDRAWAL_MAX_LNX = 0.02;
export declare const WITHDRAWAL_MIN_LNX = 0.000001;
export declare const HIDE_SMALL_BALANCES_THRESHOLD = 0.00001;
export declare const ORDERS_LIMIT = 20;
export declare const CHART_HEIGHT = 515;
export declare const DEFAULT_LEVERAGE = 10;
export declare const LEVERAGE_MIN = 1;
export declare const LEVERAGE_MAX = 100;
/** Market defaults. */
export declare const DEFAULT_PAIR = "BTCUSD";
export declare const DEFAULT_DERIVATIVE_PAIR = "BTCF0:USTF0";
export declare const DEFAULT_SYMBOL = "tBTCUSD";
export declare const DEFAULT_CURRENCY = "USD";
export declare const DEFAULT_COUNTRY = "GB";
export declare const TEST_CURRENCY = "TESTUSD";
export declare const TEST_PAIR = "TESTBTC:TESTUSD";
export declare const TICKERS_SYMBOLS_DEFAULT = "ALL";
export declare const BITCOIN_VIEW_MODE_DEFAULT = "BTC";
export declare const FEEDBACK_SOURCE_DEFAULT = "fe-web-logout";
/** Fiat currencies (SPEC section 5) and the fiat list used by the fx rules (section 9). */
export declare const FIAT_CURRENCIES: readonly [
  "USD",
  "EUR",
  "JPY",
  "HKD",
  "GBP",
  "CHF",
  "CNH",
  "TRY",
  "CNY",
  "KRW",
  "INR",
  "AUD",
  "TWD",
  "BRL",
  "RUB",
  "IDR",
  "MXN",
  "PEN",
  "UYU",
  "VES",
  "COP",
  "ARS",
  "AED",
];
export declare const FX_FIAT_CURRENCIES: readonly ["EUR", "CNH", "JPY", "GBP", "CHF", "HKD", "USD"];
/** Countries with special handling (SPEC section 9). */
export declare const SPECIAL_COUNTRIES: readonly ["AR", "BR", "CL", "CO", "PE", "SV", "MX", "PL", "TR", "VE", "GB"];
/**
 * Countries where the cookie banner is not required: the Latin American ones of the special list
 * and Turkey (SPEC section 6).
 */
export declare const COOKIE_BANNER_EXEMPT_COUNTRIES: readonly ["AR", "BR", "CL", "CO", "PE", "SV", "MX", "VE", "TR"];
/** Verification levels (SPEC section 6). */
export declare const VERIFICATION_LEVELS: {
  readonly BASIC: 0;
  readonly BASIC_PLUS: 1;
  readonly INTERMEDIATE: 2;
  readonly FULL: 3;
};
/** Margin group setting values. */
export declare const MARGIN_GROUP_CROSS_COLLATERAL = 0;
export declare const MARGIN_GROUP_DEFAULT = 1;
/** Idle websocket disconnect. */
export declare const IDLE_DISCONNECT_CODE = 4004;
export declare const IDLE_DISCONNECT_REASON = "IDLE_DISCONNECTION";
/** Grid layout config version. */
export declare const GRID_CONFIG_VERSION = "1.0.0";
