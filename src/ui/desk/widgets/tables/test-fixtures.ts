/**
 * Records for the tables' tests, built as wire rows and decoded by the protocol's codecs so the
 * derived fields (isOco, type_value, available, isMaker) are the real ones.
 */
/* eslint-disable lingui/no-unlocalized-strings -- wire values (order types, statuses), not text */
import {
  authTradeCodec,
  orderCodec,
  positionCodec,
  walletCodec,
  type AuthTrade,
  type Order,
  type Position,
  type Wallet,
} from "../../../../protocol";

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
  const row: unknown[] = new Array(32).fill(null);
  row[0] = f.id;
  row[3] = f.symbol ?? "tBTCUSD";
  row[4] = f.created ?? 1_700_000_000_000 + f.id;
  row[5] = f.updated ?? row[4];
  row[6] = f.amount ?? 1;
  row[7] = f.original ?? f.amount ?? 1;
  row[8] = f.type ?? "EXCHANGE LIMIT";
  row[13] = f.status ?? "ACTIVE";
  row[16] = f.price === undefined ? 100 : f.price;
  row[25] = f.placedId ?? null;
  return row;
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
    authTradeCodec.decode([
      f.id,
      f.pair ?? "tBTCUSD",
      f.mts ?? 1_700_000_000_000 + f.id,
      1000 + f.id,
      f.amount ?? 1,
      f.price ?? 100,
      f.type ?? "EXCHANGE LIMIT",
      f.price ?? 100,
      f.maker ?? 1,
      f.fee ?? -0.1,
      "USD",
      null,
    ]),
  );
}

export function position(f: {
  pair?: string;
  amount?: number;
  base?: number;
  pl?: number | null;
  id?: number;
}): Position {
  const row: unknown[] = new Array(20).fill(null);
  row[0] = f.pair ?? "tBTCUSD";
  row[1] = "ACTIVE";
  row[2] = f.amount ?? 1;
  row[3] = f.base ?? 100;
  row[6] = f.pl === undefined ? 0 : f.pl;
  row[7] = f.pl === undefined || f.pl === null ? null : f.pl / 100;
  row[8] = 50;
  row[9] = 2;
  row[11] = f.id ?? 1;
  return must(positionCodec.decode(row));
}

export function wallet(type: string, currency: string, balance: number, available: number | null = balance): Wallet {
  return must(walletCodec.decode([type, currency, balance, 0, available, null, null]));
}
