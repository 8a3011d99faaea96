/**
 * Order actions from the tables, with their outcome reported as an "orders" notice. The exchange's
 * own text is appended on refusal (it is the only place that says why); local failures get a
 * localized reason instead of the worker's code.
 */
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { OrderAck, OrderUpdate } from "../../../../protocol";
import { log } from "../../../log";
import { notify } from "../../notices";
import type { TablesServices } from "./services";

export function ackReason(i18n: I18n, ack: OrderAck): string {
  switch (ack.localError) {
    case "not-authenticated":
      return i18n._(msg`you are not signed in`);
    case "timeout":
      return i18n._(msg`the exchange did not answer in time`);
    case "socket-closed":
      return i18n._(msg`the connection to the exchange closed`);
    case null:
      return ack.text;
  }
}

async function run(
  i18n: I18n,
  call: () => Promise<OrderAck>,
  success: string,
  failure: (reason: string) => string,
): Promise<boolean> {
  let ack: OrderAck;
  try {
    ack = await call();
  } catch (err) {
    log.error("order action failed", err);
    notify({ level: "error", kind: "orders", text: failure(err instanceof Error ? err.message : String(err)) });
    return false;
  }
  if (ack.ok) notify({ level: "success", kind: "orders", text: success });
  else notify({ level: "error", kind: "orders", text: failure(ackReason(i18n, ack)) });
  return ack.ok;
}

export function cancelOrder(i18n: I18n, services: TablesServices, id: number): Promise<boolean> {
  return run(
    i18n,
    () => services.orders.cancelOrder(id),
    i18n._(msg`Order ${id}: cancellation submitted`),
    (reason) => i18n._(msg`Order ${id} could not be cancelled: ${reason}`),
  );
}

export function cancelAllOrders(
  i18n: I18n,
  services: TablesServices,
  target: { readonly symbol: string; readonly label: string } | "all",
): Promise<boolean> {
  if (target === "all")
    return run(
      i18n,
      () => services.orders.cancelOrders({ all: true }),
      i18n._(msg`All open orders: cancellation submitted`),
      (reason) => i18n._(msg`The orders could not be cancelled: ${reason}`),
    );
  const { label } = target;
  return run(
    i18n,
    () => services.orders.cancelOrders({ symbol: target.symbol }),
    i18n._(msg`Open orders on ${label}: cancellation submitted`),
    (reason) => i18n._(msg`The orders on ${label} could not be cancelled: ${reason}`),
  );
}

export function updateOrder(i18n: I18n, services: TablesServices, update: OrderUpdate): Promise<boolean> {
  const id = update.id;
  return run(
    i18n,
    () => services.orders.updateOrder(update),
    i18n._(msg`Order ${id}: change submitted`),
    (reason) => i18n._(msg`Order ${id} could not be changed: ${reason}`),
  );
}
