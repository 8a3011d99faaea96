/**
 * What the positions table does to a position (docs/product-rules.md#margin-positions): close it
 * (a market order the other way with the close flag, which the exchange sizes to the whole
 * position), claim it (`w/position/claim`: settled with the margin wallet's own funds), and add to
 * it from the margin wallet (`r/position/increase/info`, `w/position/increase`). Outcomes are
 * reported as "orders" notices; refusals by code in the reader's language.
 */
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { createContext, useContext } from "react";
import {
  decodePositionIncreaseInfo,
  ORDER_FLAGS,
  parseApiError,
  type OrderAck,
  type OrderRequest,
  type Position,
  type PositionIncreaseInfo,
} from "../../../../protocol";
import { log } from "../../../log";
import { market } from "../../../market/market";
import { authCall } from "../../../session";
import { errorCodeText } from "../../../shell/error-message";
import { notify } from "../../notices";
import { displayPair, formatAmount } from "./format";
import { ackReason } from "./order-actions";

export interface PositionServices {
  readonly submitOrder: (order: OrderRequest) => Promise<OrderAck>;
  /** A signed-in REST call: the HTTP status (0: not reached) and the parsed body. */
  readonly call: (path: string, body: unknown) => Promise<{ readonly status: number; readonly body: unknown }>;
}

export const PositionServicesContext = createContext<PositionServices | null>(null);

const appServices: PositionServices = {
  submitOrder: (order) => market().submitOrder(order),
  call: (path, body) => authCall(path, body),
};

export function usePositionServices(): PositionServices {
  return useContext(PositionServicesContext) ?? appServices;
}

/** The refusal of a REST reply in words, or null when it succeeded. */
function refusal(i18n: I18n, reply: { readonly status: number; readonly body: unknown }): string | null {
  const err = parseApiError(reply.body);
  if (reply.status === 200 && !err) return null;
  if (reply.status === 0) return i18n._(msg`the exchange could not be reached`);
  return errorCodeText(i18n, err?.code ?? null);
}

export async function closePosition(i18n: I18n, services: PositionServices, p: Position): Promise<boolean> {
  const pair = displayPair(p.pair);
  let ack: OrderAck;
  try {
    ack = await services.submitOrder({
      type: "MARKET",
      symbol: p.pair,
      amount: formatAmount(-p.amount),
      flags: ORDER_FLAGS.CLOSE,
    });
  } catch (err) {
    log.error("position close failed", err);
    ack = { ok: false, status: "LOCAL", text: String(err), orderIds: [], localError: "socket-closed" };
  }
  if (ack.ok) notify({ level: "success", kind: "orders", text: i18n._(msg`Position ${pair}: close submitted`) });
  else {
    const reason = ackReason(i18n, ack);
    notify({ level: "error", kind: "orders", text: i18n._(msg`Position ${pair} was not closed: ${reason}`) });
  }
  return ack.ok;
}

export async function claimPosition(i18n: I18n, services: PositionServices, p: Position): Promise<boolean> {
  const pair = displayPair(p.pair);
  const reason = refusal(i18n, await services.call("/v2/auth/w/position/claim", { id: p.id }));
  if (reason === null) notify({ level: "success", kind: "orders", text: i18n._(msg`Position ${pair} claimed`) });
  else notify({ level: "error", kind: "orders", text: i18n._(msg`Position ${pair} was not claimed: ${reason}`) });
  return reason === null;
}

/** What an increase of the position in `direction` (+1 long, -1 short) may take now; null when unknown. */
export async function increaseInfo(
  services: PositionServices,
  symbol: string,
  direction: 1 | -1,
): Promise<PositionIncreaseInfo | null> {
  const reply = await services.call("/v2/auth/r/position/increase/info", { symbol, amount: String(direction) });
  if (reply.status !== 200) return null;
  const d = decodePositionIncreaseInfo(reply.body);
  if (!d.ok) log.warn("position increase info unreadable", d.error);
  return d.ok ? d.value : null;
}

/** Adds `amount` (signed decimal text) to the position; null on success, else the refusal in words. */
export async function increasePosition(
  i18n: I18n,
  services: PositionServices,
  symbol: string,
  amount: string,
): Promise<string | null> {
  const reason = refusal(i18n, await services.call("/v2/auth/w/position/increase", { symbol, amount }));
  const pair = displayPair(symbol);
  if (reason === null) notify({ level: "success", kind: "orders", text: i18n._(msg`Position ${pair} increased`) });
  return reason;
}
