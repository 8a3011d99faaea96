/**
 * The public site's live figures (docs/protocol.md#site-figures): the conf keys the home, fees and
 * deposits-and-withdrawals pages read, with the codecs the exchange builds them with and the pages
 * read them with. The numbers come from the exchange's own configuration and markets; nothing here
 * is user text.
 */
import { recordCodec, type Decoded, type FieldSpec } from "./positional";

/** The home page's headline figures (`pub:raw:website:stats`, an object on the wire). */
export const WEBSITE_STATS_KEY = "pub:raw:website:stats";

export interface WebsiteStats {
  /** Trading pairs listed (spot and derivatives). */
  readonly markets: number;
  /** Funding currencies with a book. */
  readonly fundingMarkets: number;
  /** What every trading pair traded in the last 24 hours, valued in USD at today's rates. */
  readonly volume24hUsd: number;
  /** The same over the last 30 minutes. */
  readonly volume30mUsd: number;
  /** Trades printed in the last 24 hours. */
  readonly trades24h: number;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

export function encodeWebsiteStats(s: WebsiteStats): Record<string, number | null> {
  // `users` is on the real key; this exchange does not publish its account count.
  return { ...s, users: null };
}

/** The stats object, or null when a figure is missing or not a non-negative number. */
export function decodeWebsiteStats(raw: unknown): WebsiteStats | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const { markets, fundingMarkets, volume24hUsd, volume30mUsd, trades24h } = r;
  if (!isCount(markets) || !isCount(fundingMarkets) || !isCount(volume24hUsd)) return null;
  if (!isCount(volume30mUsd) || !isCount(trades24h)) return null;
  return { markets, fundingMarkets, volume24hUsd, volume30mUsd, trades24h };
}

/**
 * The deposit and withdrawal terms of every method (this exchange's key; the real one spreads them
 * over `pub:map:tx:method` and `pub:map:currency:tx:fee`, per currency rather than per network):
 * `[METHOD, CURRENCY, NETWORK, DEPOSIT_CONFIRMATIONS, DEPOSIT_MINIMUM, WITHDRAWAL_FEE,
 * WITHDRAWAL_MINIMUM]`, the deposit fields null for a method that only withdraws and the
 * withdrawal ones null for one that only deposits.
 */
export const TX_METHODS_KEY = "pub:info:tx:methods";

const TX_METHOD = {
  method: [0, "str"],
  currency: [1, "str"],
  network: [2, "str"],
  depositConfirmations: [3, "num?"],
  depositMinimum: [4, "num?"],
  withdrawalFee: [5, "num?"],
  withdrawalMinimum: [6, "num?"],
} as const satisfies FieldSpec;
export type TxMethodTerms = Decoded<typeof TX_METHOD>;
export const txMethodCodec = recordCodec("tx method", TX_METHOD, 7);

/**
 * The fee schedule (this exchange's key): `[MAKER, TAKER, LENDER_FEE, FIAT_CONVERSION,
 * STABLE_CONVERSION]`, each a fraction (0.001 = 0.1 %): the standard trading rates (pairs that
 * differ are in `pub:info:pair:fee:ovr`), the share of funding interest the exchange keeps, and
 * the conversion fees between two fiat currencies and between fiat and the stable coin.
 */
export const FEE_SCHEDULE_KEY = "pub:info:fees";

const FEE_SCHEDULE = {
  maker: [0, "num"],
  taker: [1, "num"],
  lenderFee: [2, "num"],
  fiatConversion: [3, "num"],
  stableConversion: [4, "num"],
} as const satisfies FieldSpec;
export type FeeSchedule = Decoded<typeof FEE_SCHEDULE>;
export const feeScheduleCodec = recordCodec("fee schedule", FEE_SCHEDULE, 5);

/**
 * A `stats1` row, `[MTS, VALUE]`. The stats page's series (`stats1/{key}/hist`): `vol.1d:1h:BFX`,
 * every pair's trailing 24-hour volume in USD at each hour, and `vol.1d:1h:{tSYMBOL}`, one pair's in
 * its base currency.
 */
const STATS_ROW = { mts: [0, "num"], value: [1, "num"] } as const satisfies FieldSpec;
export type StatsRow = Decoded<typeof STATS_ROW>;
export const statsRowCodec = recordCodec("stats row", STATS_ROW, 2);

/** The stats key of the exchange's total 24-hour volume, and of one pair's. */
export const STATS_VOLUME_ALL = "vol.1d:1h:BFX";
export function statsVolumeKey(symbol: string): string {
  return `vol.1d:1h:${symbol}`;
}
