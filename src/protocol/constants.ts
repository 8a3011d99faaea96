/**
 * Business constants and limits (docs/product-rules.md#constants). Shared by the worker, the UI and the embedded
 * exchange so that every thread agrees on the same numbers.
 */

/** Time units in milliseconds. */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WEEK_MS = 604_800_000;

/** Session and token timing. */
export const AUTH_HEARTBEAT_MS = 10_000;
export const TOKEN_EXPIRY_MS = 480_000;
export const USER_INFO_POLL_MS = 120_000;
export const TEMP_TOKEN_REFRESH_MS = 120_000;
export const KEEP_ALIVE_INTERVAL_MS = 420_000;
export const TOKEN_TTL_S = 3600;
export const TOKEN_DELETE_TIMEOUT_MS = 2000;

/** Navigation. */
export const DELAYED_PAGE_LOAD_MS = 1000;
export const PAGE_DATA_MAX_RETRIES = 3;
export const PREFETCH_BATCH_SIZE = 4;
export const PREFETCH_INTERVAL_MS = 3000;

/** Rate caches. */
export const RATE_CACHE_TTL_MS = 60_000;
export const USD_RATE_REUSE_MS = 30_000;

/** Query cache. */
export const QUERY_UNUSED_KEEP_MS = 60_000;
export const SUBSCRIPTION_BATCH_MS = 500;
/** The largest delay a browser timer accepts (2^31 - 1 ms); longer timers fire at once. */
export const MAX_TIMER_MS = 2_147_482_647;

/** Cookie banner consent lifetime: 90 days. */
export const COOKIE_CONSENT_TTL_MS = 7_776_000_000;

/** Order books. */
export const BOOK_PRECISIONS = ["P0", "P1", "P2", "P3", "P4"] as const;
export type BookPrecision = (typeof BOOK_PRECISIONS)[number];
export const BOOK_FREQUENCIES = ["F0", "F1"] as const;
export type BookFrequency = (typeof BOOK_FREQUENCIES)[number];
export const BOOK_LENGTHS = [1, 25, 100, 250] as const;
export type BookLength = (typeof BOOK_LENGTHS)[number];
export const DEFAULT_BOOK_LENGTH: BookLength = 100;
export const ALTERNATE_BOOK_LENGTH: BookLength = 250;
/** The checksum covers this many levels per side, interleaved bid/ask. */
export const CHECKSUM_LEVELS = 25;
export const CANDLE_SNAPSHOT_LIMIT = 120;
export const NOTIFICATION_TTL_MS = 6000;
export const WS_PUBSUB_CONSTANT = 14336;

/** Trades list trimming: when more than 48 are stored, keep the newest 24. */
export const TRADES_TRIM_ABOVE = 48;
export const TRADES_TRIM_KEEP = 24;

/** Number formatting. */
export const PRICE_SIGNIFICANT_DIGITS = 5;
export const WALLET_DECIMALS = 8;
export const WALLET_DECIMALS_SHORT = 5;
export const MAX_DECIMAL_PLACES = 20;

/** Settings updates are debounced: 1000 ms in production, 350 ms otherwise. */
export const UPDATE_DEBOUNCE_PROD_MS = 1000;
export const UPDATE_DEBOUNCE_DEV_MS = 350;

/** Stress-test intensities: one burst of `count` updates every `intervalMs`. */
export interface StressIntensity {
  readonly intervalMs: number;
  readonly count: number;
}
export const STRESS_INTENSITIES: readonly StressIntensity[] = [
  { intervalMs: 500, count: 1 },
  { intervalMs: 250, count: 2 },
  { intervalMs: 100, count: 5 },
  { intervalMs: 60, count: 8 },
];

/** Withdrawals and balances. */
export const WITHDRAWAL_MAX_LNX = 0.02;
export const WITHDRAWAL_MIN_LNX = 0.000001;
export const HIDE_SMALL_BALANCES_THRESHOLD = 0.00001;
/** Trading fees of the base tier, which the embedded exchange charges: maker 0.1 %, taker 0.2 %. */
export const MAKER_FEE_RATE = 0.001;
export const TAKER_FEE_RATE = 0.002;
export const ORDERS_LIMIT = 20;
export const CHART_HEIGHT = 515;
export const DEFAULT_LEVERAGE = 10;
export const LEVERAGE_MIN = 1;
export const LEVERAGE_MAX = 100;

/** Market defaults. */
export const DEFAULT_PAIR = "BTCUSD";
export const DEFAULT_DERIVATIVE_PAIR = "BTCF0:USTF0";
export const DEFAULT_SYMBOL = "tBTCUSD";
export const DEFAULT_CURRENCY = "USD";
export const DEFAULT_COUNTRY = "GB";
export const TEST_CURRENCY = "TESTUSD";
export const TEST_PAIR = "TESTBTC:TESTUSD";
export const TICKERS_SYMBOLS_DEFAULT = "ALL";
export const BITCOIN_VIEW_MODE_DEFAULT = "BTC";
export const FEEDBACK_SOURCE_DEFAULT = "fe-web-logout";

/** Fiat currencies and the fiat list used by the fx rules (docs/product-rules.md#constants). */
export const FIAT_CURRENCIES = [
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
] as const;
export const FX_FIAT_CURRENCIES = ["EUR", "CNH", "JPY", "GBP", "CHF", "HKD", "USD"] as const;

/** Countries with special handling (docs/product-rules.md#constants). */
export const SPECIAL_COUNTRIES = ["AR", "BR", "CL", "CO", "PE", "SV", "MX", "PL", "TR", "VE", "GB"] as const;
/**
 * Countries where the cookie banner is not required: the Latin American ones of the special list
 * and Turkey (docs/product-rules.md#compliance-gates).
 */
export const COOKIE_BANNER_EXEMPT_COUNTRIES = ["AR", "BR", "CL", "CO", "PE", "SV", "MX", "VE", "TR"] as const;

/** Verification levels (docs/product-rules.md#verification-levels). */
export const VERIFICATION_LEVELS = { BASIC: 0, BASIC_PLUS: 1, INTERMEDIATE: 2, FULL: 3 } as const;

/** Margin group setting values. */
export const MARGIN_GROUP_CROSS_COLLATERAL = 0;
export const MARGIN_GROUP_DEFAULT = 1;

/** Idle websocket disconnect. */
export const IDLE_DISCONNECT_CODE = 4004;
export const IDLE_DISCONNECT_REASON = "IDLE_DISCONNECTION";

/** Grid layout config version. */
export const GRID_CONFIG_VERSION = "1.0.0";
