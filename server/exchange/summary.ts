/**
 * The account summary (`POST /v2/auth/r/summary`, documented by Bitfinex; and the site's
 * `POST /v2/auth/r/int/summary`, which the product reads "from the first element of the
 * response" (docs/product-rules.md#calls) and no source shows: this exchange answers it with the
 * same record wrapped in one array, `[SUMMARY]`). The record, as the public reference documents it:
 *
 * `[null, null, null, null, FEE_INFO, TRADING_VOL_AND_FEE, FUNDING_EARNINGS, null, null, LEO_INFO]`
 * - FEE_INFO `[[MAKER, MAKER, MAKER, null, null, DERIV_REBATE], [TAKER_TO_CRYPTO, TAKER_TO_STABLE,
 *   TAKER_TO_FIAT, null, null, DERIV_TAKER]]` — the rates settlement charges (settlement.ts feeRates);
 * - TRADING_VOL_AND_FEE `[TRADE_VOL_30d, FEES_TRADING_30d, FEES_TRADING_TOTAL_30d]`: per traded base
 *   currency `{curr, vol, vol_safe, vol_maker, vol_BFX, vol_BFX_safe, vol_BFX_maker}` (amounts in
 *   that currency) and a last `{curr: "Total (USD)", …}` in USD; fees paid per currency and their
 *   USD total — all from the account's own trades of the last 30 days;
 * - FUNDING_EARNINGS `[null, {CCY: earned}, TOTAL_USD]`: the "Margin Funding Payment" ledger entries
 *   of the last 30 days;
 * - LEO_INFO `{leo_lev, leo_amount_avg}`: no LEO here, so 0 and 0.
 */
import { splitPair } from "../../src/protocol/index.ts";
import { fromUnits, type Db } from "../store/db.ts";
import { fxRate } from "./derived.ts";
import type { Exchange } from "./exchange.ts";
import { feeRates } from "./settlement.ts";

const DAYS_30_MS = 30 * 86_400_000;
const round8 = (x: number): number => Math.round(x * 1e8) / 1e8;
const round2 = (x: number): number => Math.round(x * 100) / 100;

/** What one unit of a currency is worth in USD here (derivative and paper codes as their underlying). */
export function usdValue(exchange: Exchange, currency: string): number {
  const c = currency.replace(/F0$/, "").replace(/^TEST/, "");
  if (c === "USD" || c === "UST") return 1;
  return fxRate(exchange, c, "USD") ?? 0;
}

interface VolumeEntry {
  vol: number;
  maker: number;
}

export function accountSummary(db: Db, exchange: Exchange, userId: number, now: number): unknown[] {
  const since = now - DAYS_30_MS;
  const trades = db
    .prepare("SELECT symbol, amount, price, maker, fee, fee_currency FROM trades WHERE user_id = ? AND mts >= ?")
    .all(userId, since) as {
    symbol: string;
    amount: number;
    price: number;
    maker: number;
    fee: number;
    fee_currency: string;
  }[];
  const volumes = new Map<string, VolumeEntry>();
  const total: VolumeEntry = { vol: 0, maker: 0 };
  const fees = new Map<string, number>();
  for (const t of trades) {
    const { base, quote } = splitPair(t.symbol.slice(1)) ?? { base: "", quote: "" };
    const amount = Math.abs(fromUnits(t.amount));
    const usd = amount * t.price * usdValue(exchange, quote);
    const v = volumes.get(base) ?? { vol: 0, maker: 0 };
    v.vol += amount;
    total.vol += usd;
    if (t.maker) {
      v.maker += amount;
      total.maker += usd;
    }
    volumes.set(base, v);
    // Stored fees are what was charged, negative; the summary lists what was paid.
    fees.set(t.fee_currency, (fees.get(t.fee_currency) ?? 0) - fromUnits(t.fee));
  }
  const entry = (curr: string, v: VolumeEntry, r: (x: number) => number): Record<string, unknown> => ({
    curr,
    vol: r(v.vol),
    vol_safe: r(v.vol),
    vol_maker: r(v.maker),
    vol_BFX: r(v.vol),
    vol_BFX_safe: r(v.vol),
    vol_BFX_maker: r(v.maker),
  });
  const tradeVol = [
    ...[...volumes.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([c, v]) => entry(c, v, round8)),
    entry("Total (USD)", total, round2),
  ];
  const feesPaid: Record<string, number> = {};
  let feesUsd = 0;
  for (const [c, f] of fees) {
    feesPaid[c] = round8(f);
    feesUsd += f * usdValue(exchange, c);
  }
  const earnedRows = db
    .prepare(
      "SELECT currency, SUM(amount) AS amount FROM ledgers WHERE user_id = ? AND mts >= ? AND description LIKE 'Margin Funding Payment%' GROUP BY currency",
    )
    .all(userId, since) as { currency: string; amount: number }[];
  const earned: Record<string, number> = {};
  let earnedUsd = 0;
  for (const r of earnedRows) {
    earned[r.currency] = fromUnits(r.amount);
    earnedUsd += fromUnits(r.amount) * usdValue(exchange, r.currency);
  }
  const spot = feeRates("tBTCUSD");
  const deriv = feeRates("tBTCF0:USTF0");
  return [
    null,
    null,
    null,
    null,
    [
      [spot.maker, spot.maker, spot.maker, null, null, deriv.maker],
      [spot.taker, spot.taker, spot.taker, null, null, deriv.taker],
    ],
    [tradeVol, feesPaid, round2(feesUsd)],
    [null, earned, round2(earnedUsd)],
    null,
    null,
    { leo_lev: 0, leo_amount_avg: 0 },
  ];
}
