/**
 * Records for the tables' tests, built as wire rows and decoded by the protocol's codecs so the
 * derived fields (isOco, type_value, available, isMaker) are the real ones.
 */
import {
  authTradeCodec,
  orderCodec,
  positionCodec,
  walletCodec,
  type AuthTrade,
  type Order,
  type Position,
  type Wallet,
} from "../../protocol";

function must<T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!r.ok) throw new Error(`fixture does not decode: ${JSON.stringify(r.error)}`);
  return r.value;
}

export interface OrderFixture {
  id: number;
  symbol?: string;
  amount?: number;
  original?: number;
  type?: string;
  status?: string;
  price?: number | null;
  created?: number;
  updated?: number;
  placedId?: number | null;
}

export function orderRow(f: OrderFixture): unknown[] {
  const created = f.created ?? 1_700_000_000_000 + f.id;
  return orderCodec.encode({
    id: f.id,
    group_id: null,
    client_id: null,
    symbol: f.symbol ?? "tBTCUSD",
    mts_create: created,
    mts_update: f.updated ?? created,
    amount: f.amount ?? 1,
    original_amount: f.original ?? f.amount ?? 1,
    type: f.type ?? "EXCHANGE LIMIT",
    type_prev: null,
    mts_tif: null,
    flags: null,
    status: f.status ?? "ACTIVE",
    price: f.price === undefined ? 100 : f.price,
    price_average: null,
    price_trailing: null,
    price_aux_limit: null,
    notify: false,
    hidden: false,
    placed_id: f.placedId ?? null,
    routing: null,
    meta: null,
  });
}

export function order(f: OrderFixture): Order {
  return must(orderCodec.decode(orderRow(f)));
}

export function trade(f: {
  id: number;
  pair?: string;
  amount?: number;
  price?: number;
  mts?: number;
  type?: string;
  maker?: number;
  fee?: number;
}): AuthTrade {
  return must(
    authTradeCodec.decode(
      authTradeCodec.encode({
        id: f.id,
        pair: f.pair ?? "tBTCUSD",
        mts_create: f.mts ?? 1_700_000_000_000 + f.id,
        order_id: 1000 + f.id,
        exec_amount: f.amount ?? 1,
        exec_price: f.price ?? 100,
        order_type: f.type ?? "EXCHANGE LIMIT",
        order_price: f.price ?? 100,
        maker: f.maker ?? 1,
        fee: f.fee ?? -0.1,
        fee_currency: "USD",
        cid: null,
      }),
    ),
  );
}

export function position(f: {
  pair?: string;
  amount?: number;
  base?: number;
  pl?: number | null;
  id?: number;
}): Position {
  const pl = f.pl === undefined ? 0 : f.pl;
  const row = positionCodec.encode({
    pair: f.pair ?? "tBTCUSD",
    status: "ACTIVE",
    amount: f.amount ?? 1,
    basePrice: f.base ?? 100,
    swap: null,
    swapType: null,
    pl,
    plPercent: pl === null ? null : pl / 100,
    liqPrice: 50,
    leverage: 2,
    id: f.id ?? 1,
    mtsCreate: null,
    mtsUpdate: null,
    posType: null,
    collateral: null,
    minCollateral: null,
    maxCollateral: null,
  });
  return must(positionCodec.decode(row));
}

export function wallet(type: string, currency: string, balance: number, available: number | null = balance): Wallet {
  const row = walletCodec.encode({
    type,
    currency,
    balance,
    interest: 0,
    availableRaw: available,
    description: null,
    meta: null,
  });
  return must(walletCodec.decode(row));
}
